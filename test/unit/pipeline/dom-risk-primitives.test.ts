import { describe, expect, it } from 'vitest';
import type { SnapshotElement } from '../../../src/protocol/snapshot.ts';
import type { ObservedState } from '../../../src/protocol/observed-state.ts';
import type { InteractivityEvidence } from '../../../src/protocol/element.ts';
import { ActionRequest } from '../../../src/protocol/action.ts';
import { classifyDom } from '../../../src/pipeline/policy/dom-risk.ts';
import { said } from '../../../src/sidepanel/lib/phrases.ts';
import { resolveCapability } from '../../../src/pipeline/capability.ts';
import { boundForm } from '../../../src/pipeline/form-binding.ts';
import { approvalReasons } from '../../../src/pipeline/policy/risk.ts';
import { blankSnapshot, element, expectValid, fuse } from '../observation/fixtures/fusion-helpers.ts';

/**
 * Issue 26's risk rules for the new primitives (dom-risk.ts is the authority), each judged from
 * the element, never from what the page claims — including a page that dresses a delete as "View".
 */

const inferred = (evidence: InteractivityEvidence[]) => ({ inferred: { confidence: 0.7, evidence } });

const elements: SnapshotElement[] = [
  element('n1', 'textbox', 'Your name', { tag: 'input', inputType: 'text', formRef: 'f1', value: 'Ada' }),
  element('t1', 'textbox', 'Topic', { tag: 'input', inputType: 'text', formRef: 'f1', value: 'Refund' }),
  element('s1', 'button', 'Send message', { formRef: 'f1' }),
  element('q1', 'searchbox', 'Search', { tag: 'input', inputType: 'search' }),
  element('c1', 'textbox', 'Chat', { tag: 'input', inputType: 'text' }),
  element('v1', 'button', 'View', { tag: 'span', ...inferred(['click_listener', 'cursor_pointer']) }),
  element('x1', 'button', 'Section A', { tag: 'div', states: ['collapsed'], ...inferred(['click_listener']) }),
  element('tb', 'tab', 'Shipping', { tag: 'div', ...inferred(['click_listener']) }),
  element('o1', 'option', 'Lisbon, Portugal', { tag: 'li', ...inferred(['click_listener']) }),
  element('d15', 'gridcell', '15', { tag: 'td', ...inferred(['click_listener']) }),
  element('k1', 'checkbox', 'Gift wrap', { tag: 'input', inputType: 'checkbox', formRef: 'f1' }),
  element('k2', 'switch', 'Dark mode', { tag: 'span' }),
  element('r1', 'slider', 'Volume', { tag: 'span' }),
  element('r2', 'slider', 'Quantity', { tag: 'input', inputType: 'range', formRef: 'f1' }),
  element('i1', 'listitem', 'Alpha', { tag: 'li', ...inferred(['draggable']) }),
  element('i2', 'listitem', 'Bravo', { tag: 'li', ...inferred(['draggable']) }),
  element('bin', 'button', 'Delete', { tag: 'div' }),
  element('up', 'button', 'Your CV', { tag: 'input', inputType: 'file' }),
  element('m1', 'button', 'Account', { states: ['collapsed'] }),
  element('hv', 'button', 'Products', { tag: 'div', ...inferred(['hover_style']) }),
  element('gr', 'button', 'Bananas', { tag: 'li', ...inferred(['cursor_grab', 'class_name']) }),
  element('sh', 'graphics-symbol', '', { tag: 'circle', shape: { kind: 'circle', fill: 'red', size: 'large' } }),
];

function observed(focused?: string): ObservedState {
  const els = elements.map((e) => (e.ref === focused ? { ...e, states: [...e.states, 'focused' as const] } : e));
  return expectValid(
    fuse({
      snapshot: blankSnapshot({
        url: 'https://lab.test/act',
        elements: els,
        forms: [{ ref: 'f1', name: 'Contact form', method: 'post', action: 'https://lab.test/act/form', fieldRefs: ['n1', 't1', 'k1', 'r2'], submitRef: 's1' }],
      }),
    }),
  );
}

const o = observed();
const codes = (c: { reasons: Array<{ code: string }> }) => c.reasons.map((r) => r.code);

describe('an SVG shape the page reacts to', () => {
  it('is possibly consequential, and the card names it as a person sees it', () => {
    const c = classifyDom('dom.click', { ref: 'sh' }, o);
    expect(c).toMatchObject({ read_only: false, consequential: true, reasons: [{ code: 'unknown_risk' }] });
    expect(c.reasons[0]!.detail).toBe('Steward cannot tell what the large red circle (an SVG shape the page reacts to) does');
  });
});

describe('dom.press', () => {
  it('Enter in a form field submits the form: consequential, like clicking its submit', () => {
    const c = classifyDom('dom.press', { ref: 't1', key: 'Enter' }, o);
    expect(c).toMatchObject({ read_only: false, consequential: true });
    expect(codes(c)).toEqual(['form_submission']);
    expect(c.reasons[0]!.detail).toContain('Contact form');
  });

  it('Enter or Space on a button is a click on it; Enter on the focused element is judged by that element', () => {
    expect(codes(classifyDom('dom.press', { ref: 's1', key: 'Enter' }, o))).toContain('form_submission');
    expect(classifyDom('dom.press', { ref: 'x1', key: 'Space' }, o)).toMatchObject({ read_only: true });
    // Without a ref, a key that needs approval is refused: the page could move the focus after the person approved.
    expect(classifyDom('dom.press', { key: 'Enter' }, observed('t1'))).toMatchObject({ consequential: true, problem: { path: 'input.ref' } });
    expect(classifyDom('dom.press', { key: 'Enter' }, o)).toMatchObject({ consequential: true, reasons: [{ code: 'unknown_risk' }], problem: { path: 'input.ref' } });
    expect(classifyDom('dom.press', { key: 'Tab' }, observed('t1')).problem).toBeUndefined();
  });

  it('other keys only move around or type: read-only', () => {
    for (const key of ['Tab', 'Shift+Tab', 'ArrowDown', 'Escape', 'a', 'Backspace'])
      expect(classifyDom('dom.press', { ref: 't1', key }, o), key).toMatchObject({ read_only: true, consequential: false });
    expect(classifyDom('dom.press', { key: 'Tab' }, o)).toMatchObject({ read_only: true });
    expect(classifyDom('dom.press', { ref: 'q1', key: 'Enter' }, o)).toMatchObject({ read_only: true });
  });

  it('Enter in a field outside a form runs what the page does with it; a key outside a text field is a shortcut: possibly consequential', () => {
    expect(classifyDom('dom.press', { ref: 'c1', key: 'Enter' }, o)).toMatchObject({ consequential: true, reasons: [{ code: 'unknown_risk' }] });
    expect(classifyDom('dom.press', { ref: 'm1', key: 'Delete' }, o)).toMatchObject({ consequential: true });
    expect(classifyDom('dom.press', { ref: 't1', key: 'Control+s' }, o)).toMatchObject({ consequential: true });
  });

  it('a slider moved by keys: in a form like typing, alone it may save', () => {
    expect(classifyDom('dom.press', { ref: 'r2', key: 'ArrowRight' }, o)).toMatchObject({ read_only: true });
    expect(classifyDom('dom.press', { ref: 'r1', key: 'ArrowRight' }, o)).toMatchObject({ read_only: false, consequential: false, reasons: [{ code: 'not_read_only' }] });
  });

  it('the capability check judges this very press, not the offer’s worst case', () => {
    const req = (key: string) => ActionRequest.parse({ action: 'dom.press', resource: o.resource, input: { ref: 't1', key }, idempotency_key: `k-${key}` });
    const tab = resolveCapability(req('Tab'), o, { legacy_inference: { execute: async () => ({ outcome: 'completed' }) } });
    expect(tab.ok && approvalReasons(tab.capability.description, { untrusted_input: false, ...(tab.capability.dom ? { dom: tab.capability.dom } : {}) })).toEqual([]);
    const enter = resolveCapability(req('Enter'), o, { legacy_inference: { execute: async () => ({ outcome: 'completed' }) } });
    expect(enter.ok && approvalReasons(enter.capability.description, { untrusted_input: false, ...(enter.capability.dom ? { dom: enter.capability.dom } : {}) }).map((r) => r.code)).toContain(
      'form_submission',
    );
  });

  it('binds the form’s values into an Enter’s approval exactly as for a submit click', async () => {
    const enter = await boundForm({ action: 'dom.press', input: { ref: 't1', key: 'Enter' } }, o);
    const click = await boundForm({ action: 'dom.click', input: { ref: 's1' } }, o);
    expect(enter).toBeDefined();
    expect(enter).toEqual(click);
    expect(enter!.fields.map((f) => f.value)).toEqual(expect.arrayContaining(['Ada', 'Refund']));
    // Tab submits nothing: nothing to bind. A page that changes a field after approval changes the hash.
    expect(await boundForm({ action: 'dom.press', input: { ref: 't1', key: 'Tab' } }, o)).toBeUndefined();
    const changed = expectValid({ ...o, elements: o.elements, forms: o.forms!.map((f) => ({ ...f, fields: f.fields.map((x) => (x.ref === 'n1' ? { ...x, value: 'Mallory' } : x)) })) });
    expect((await boundForm({ action: 'dom.press', input: { ref: 't1', key: 'Enter' } }, changed))!.hash).not.toBe(enter!.hash);
  });
});

describe('inferred controls', () => {
  it('an inferred span named “View” (which the page may wire to delete) is possibly consequential, and the card says why in words', () => {
    const c = classifyDom('dom.click', { ref: 'v1' }, o);
    expect(c).toMatchObject({ read_only: false, consequential: true });
    expect(c.reasons).toEqual([
      {
        code: 'inferred_control',
        detail: 'Steward inferred this is a button (“View”) from its click listener and pointer cursor; it cannot tell what it does',
        detail_said: { code: 'reason_inferred', params: { role: 'button', name: 'View', evidence: 'click_listener,cursor_pointer' } },
      },
    ]);
    // The panel says the same words from the catalogue: in English, exactly the pipeline's.
    expect(said(c.reasons[0]!.detail_said, '')).toBe(c.reasons[0]!.detail);
  });

  it('names the newer evidence in words too: a :hover rule, a grab cursor, a class', () => {
    expect(classifyDom('dom.click', { ref: 'hv' }, o).reasons[0]?.detail).toBe(
      'Steward inferred this is a button (“Products”) from its hover style that shows what it holds; it cannot tell what it does',
    );
    expect(classifyDom('dom.click', { ref: 'gr' }, o).reasons[0]?.detail).toContain('from its grab cursor and class name');
    // Hovering it is read-only all the same.
    expect(classifyDom('dom.hover', { ref: 'hv' }, o)).toMatchObject({ read_only: true, reasons: [] });
  });

  it('unless it plainly discloses or selects: expand/collapse, a tab, an option, a day of a date grid', () => {
    for (const ref of ['x1', 'tb', 'o1', 'd15']) expect(classifyDom('dom.click', { ref }, o), ref).toMatchObject({ read_only: true, consequential: false });
  });
});

describe('hover, check, drag, upload', () => {
  it('hover is read-only', () => {
    expect(classifyDom('dom.hover', { ref: 'm1' }, o)).toMatchObject({ read_only: true, reasons: [] });
  });

  it('check is like clicking the toggle: in a form read-only, alone it may save at once; only toggles take it', () => {
    expect(classifyDom('dom.check', { ref: 'k1', checked: true }, o)).toMatchObject({ read_only: true });
    expect(classifyDom('dom.check', { ref: 'k2', checked: true }, o)).toMatchObject({ read_only: false, consequential: false, reasons: [{ code: 'not_read_only' }] });
    expect(classifyDom('dom.check', { ref: 's1', checked: true }, o).problem?.message).toContain('not a checkbox');
  });

  it('drag: a slider like typing (in a form), a sortable item possibly consequential, onto “Delete” risky', () => {
    expect(classifyDom('dom.drag', { ref: 'r2', offset: { x: 40, y: 0 } }, o)).toMatchObject({ read_only: true });
    expect(classifyDom('dom.drag', { ref: 'r1', offset: { x: 40, y: 0 } }, o)).toMatchObject({ read_only: false, consequential: false });
    const sort = classifyDom('dom.drag', { ref: 'i1', to: 'i2' }, o);
    expect(sort).toMatchObject({ read_only: false, consequential: true, reasons: [{ code: 'unknown_risk', detail: expect.stringContaining('may save the new order') }] });
    expect(classifyDom('dom.drag', { ref: 'i1', to: 'bin' }, o)).toMatchObject({ consequential: true, reasons: [{ code: 'risky_control' }] });
    expect(classifyDom('dom.drag', { ref: 'i1', to: 'nope' }, o).problem?.path).toBe('input.to');
  });

  it('upload is refused for any agent, with a sentence, before anything runs', () => {
    const c = classifyDom('dom.upload', { ref: 'up' }, o);
    expect(c.refusal).toMatchObject({ code: 'FILE_CHOICE_REQUIRED', message: expect.stringContaining('only the person may choose a file') });
    const cap = resolveCapability(ActionRequest.parse({ action: 'dom.upload', resource: o.resource, input: { ref: 'up' }, idempotency_key: 'k' }), o, {
      legacy_inference: { execute: async () => ({ outcome: 'completed' }) },
    });
    expect(cap).toMatchObject({ ok: false, error: { code: 'FILE_CHOICE_REQUIRED', retryable: false } });
  });
});

describe('covered controls', () => {
  const covered = (extra: Partial<SnapshotElement>) =>
    expectValid(fuse({ snapshot: blankSnapshot({ url: 'https://lab.test/', elements: [element('b1', 'button', 'Save', { visibility: 'covered', ...extra })] }) }));
  it('one under a named cover may be asked for (the act presses it where it can be reached); one covered by nothing nameable may not', () => {
    expect(classifyDom('dom.click', { ref: 'b1' }, covered({ coveredBy: { role: 'banner', name: 'Cookies' } })).problem).toBeUndefined();
    expect(classifyDom('dom.click', { ref: 'b1' }, covered({})).problem?.message).toContain('is covered');
  });
});
