import { describe, expect, it } from 'vitest';
import type { SnapshotElement } from '../../../src/protocol/snapshot.ts';
import { classifyDom } from '../../../src/pipeline/policy/dom-risk.ts';
import type { DomActionName } from '../../../src/protocol/action-name.ts';
import { blankSnapshot, element, expectValid, fuse } from './fixtures/fusion-helpers.ts';

/** Which primitives each control is offered, and that the risk at offer time agrees with dom-risk.ts. */

const elements: SnapshotElement[] = [
  element('n1', 'textbox', 'Your name', { tag: 'input', inputType: 'text', formRef: 'f1' }),
  element('s1', 'button', 'Send message', { formRef: 'f1' }),
  element('q1', 'searchbox', 'Search', { tag: 'input', inputType: 'search' }),
  element('k1', 'checkbox', 'Gift wrap', { tag: 'input', inputType: 'checkbox', formRef: 'f1' }),
  element('k2', 'switch', 'Dark mode', { tag: 'span' }),
  element('r1', 'slider', 'Volume', { tag: 'span' }),
  element('i1', 'listitem', 'Alpha', { tag: 'li', inferred: { confidence: 0.6, evidence: ['draggable'] } }),
  element('v1', 'button', 'View', { tag: 'span', inferred: { confidence: 0.7, evidence: ['click_listener'] } }),
  element('h1', 'button', 'Products', { tag: 'span', inferred: { confidence: 0.7, evidence: ['hover_listener'] } }),
  element('h2', 'button', 'Services', { tag: 'div', inferred: { confidence: 0.5, evidence: ['hover_style'] } }),
  element('g1', 'button', '⠿', { tag: 'span', inferred: { confidence: 0.5, evidence: ['cursor_grab'] } }),
  element('z1', 'region', 'Done', { tag: 'div', inferred: { confidence: 0.6, evidence: ['drop_listener'] } }),
  element('m1', 'button', 'Account', { states: ['collapsed'] }),
  element('up', 'button', 'Your CV', { tag: 'input', inputType: 'file' }),
  element('co', 'button', 'Accent colour', { tag: 'input', inputType: 'color', states: ['editable'] }),
  element('c1', 'button', 'Pay now', { visibility: 'covered', coveredBy: { role: 'banner', name: 'Cookies' } }),
  element('sv', 'img', 'Red circle', { tag: 'circle', passive: true, shape: { kind: 'circle', fill: 'red' } }),
];
const s = expectValid(
  fuse({
    snapshot: blankSnapshot({ url: 'https://lab.test/act', elements, forms: [{ ref: 'f1', method: 'post', action: 'https://lab.test/act/form', fieldRefs: ['n1', 'k1'], submitRef: 's1' }] }),
  }),
);
const on = (ref: string) => (s.actions ?? []).filter((a) => a.target_ref === ref);
const names = (ref: string) => on(ref).map((a) => a.action);

describe('offered primitives', () => {
  it('each control gets the primitives that make sense for it', () => {
    expect(names('n1')).toEqual(['dom.type', 'dom.press']);
    expect(names('q1')).toEqual(['dom.type', 'dom.press']);
    expect(names('k1')).toEqual(['dom.click', 'dom.check']);
    expect(names('k2')).toEqual(['dom.click', 'dom.check']);
    expect(names('r1')).toEqual(['dom.click', 'dom.press', 'dom.drag']);
    expect(names('i1')).toEqual(['dom.click', 'dom.drag']);
    expect(names('h1')).toEqual(['dom.click', 'dom.hover']);
    // A CSS :hover menu's title, a grip with a grab cursor, and a drop target (only a drag's `to`).
    expect(names('h2')).toEqual(['dom.click', 'dom.hover']);
    expect(names('g1')).toEqual(['dom.click', 'dom.drag']);
    expect(names('z1')).toEqual([]);
    expect(names('m1')).toEqual(['dom.click', 'dom.hover']);
    expect(names('up')).toEqual(['dom.upload']);
    // A colour input is drawn as a button, but its picker is the system's: its value is typed.
    expect(names('co')).toEqual(['dom.type']);
    expect(names('c1')).toEqual(['dom.click']);
    expect(names('sv')).toEqual([]);
    expect(s.actions?.find((a) => a.action === 'dom.press' && a.target_ref === undefined)).toMatchObject({ read_only: true, requires_approval: false });
  });

  it('upload is offered as the person’s, needing approval, and says so', () => {
    expect(on('up')[0]).toMatchObject({ consequential: true, requires_approval: true, description: expect.stringContaining('only the person may choose a file') });
  });

  // Plain buttons keep their older offer-time reading (the gateway takes the riskier of the two);
  // the new primitives, toggles and inferred controls must agree exactly.
  const judged = (a: { action: string; target_ref?: string }) =>
    !['dom.click', 'dom.type', 'dom.select'].includes(a.action) || ['k1', 'k2', 'v1', 'h1', 'h2', 'g1', 'i1', 'm1'].includes(a.target_ref ?? '');
  it('says at offer time what dom-risk says when asked (press: its worst key, Enter)', () => {
    const inputs: Record<string, Record<string, unknown>> = {
      'dom.type': { text: 'x' },
      'dom.press': { key: 'Enter' },
      'dom.check': { checked: true },
      'dom.drag': { offset: { x: 30, y: 0 } },
      'dom.click': {},
      'dom.hover': {},
      'dom.upload': {},
    };
    for (const a of s.actions ?? []) {
      if (!a.target_ref || !judged(a)) continue;
      const c = classifyDom(a.action as DomActionName, { ref: a.target_ref, ...inputs[a.action] }, s);
      expect({ ref: a.target_ref, action: a.action, read_only: a.read_only, consequential: a.consequential }).toEqual({
        ref: a.target_ref,
        action: a.action,
        read_only: c.read_only,
        consequential: c.consequential,
      });
    }
  });
});

describe('a page full of fields', () => {
  it('keeps every control’s first action; the extra primitives fill the room left', () => {
    const fields = Array.from({ length: 300 }, (_, i) => element(`q${i}`, 'textbox', `Quantity ${i}`, { tag: 'input', inputType: 'text' }));
    const big = expectValid(fuse({ snapshot: blankSnapshot({ url: 'https://lab.test/', elements: fields }) }));
    const dom = (big.actions ?? []).filter((a) => a.target_ref);
    expect(new Set(dom.filter((a) => a.action === 'dom.type').map((a) => a.target_ref)).size).toBe(300);
    expect(dom.filter((a) => a.action === 'dom.press')).toHaveLength(180);
    expect(dom.length).toBe(480);
  });
});
