import { describe, expect, it } from 'vitest';
import type { SnapshotElement, SnapshotForm } from '../../../src/protocol/snapshot.ts';
import type { ObservedState } from '../../../src/protocol/observed-state.ts';
import { classifyDom } from '../../../src/pipeline/policy/dom-risk.ts';
import { blankSnapshot, element, expectValid, fuse } from '../observation/fixtures/fusion-helpers.ts';

/**
 * A search or filter form is a look, like a link the page shows: a GET its markup states, to the
 * page's own site.
 * Asking the person before every search was the bench's false hold (issue 27). Everything else a
 * form does stays consequential: a POST, a GET to another site (data leaving), a risky or consent
 * name, a password or payment field.
 */

function page(forms: SnapshotForm[], extra: SnapshotElement[] = []): ObservedState {
  const elements: SnapshotElement[] = [
    element('q', 'searchbox', 'Search the shop', { tag: 'input', inputType: 'search', formRef: 'f' }),
    element('go', 'button', 'Search', { formRef: 'f' }),
    ...extra,
  ];
  return expectValid(fuse({ snapshot: blankSnapshot({ url: 'https://shop.test/orders', elements, forms }) }));
}

const form = (over: Partial<SnapshotForm>): SnapshotForm => ({ ref: 'f', method: 'get', methodDeclared: true, action: 'https://shop.test/search', fieldRefs: ['q'], submitRef: 'go', ...over });

describe('submitting a search or filter form', () => {
  it('is read-only when it is a GET to the page’s own site, and says where it leads', () => {
    const o = page([form({})]);
    for (const c of [classifyDom('dom.click', { ref: 'go' }, o), classifyDom('dom.press', { ref: 'q', key: 'Enter' }, o)]) {
      expect(c).toMatchObject({ read_only: true, consequential: false, reasons: [], leads_to: 'https://shop.test/search' });
    }
  });

  it('stays a form submission for a POST, a form without a stated method (scripts submit those), another site, or a form Steward cannot place', () => {
    for (const f of [form({ method: 'post' }), form({ methodDeclared: undefined }), form({ action: 'https://collector.test/search' }), form({ action: 'javascript:void 0' })]) {
      const o = page([f]);
      const click = classifyDom('dom.click', { ref: 'go' }, o);
      expect(click.consequential, JSON.stringify(f)).toBe(true);
      expect(click.reasons.map((r) => r.code)).toContain('form_submission');
      expect(classifyDom('dom.press', { ref: 'q', key: 'Enter' }, o).consequential).toBe(true);
    }
  });

  it('stays consequential when the button is risky, asks consent, or the form takes a password or money', () => {
    const risky = page([form({ submitRef: 'del' })], [element('del', 'button', 'Delete results', { formRef: 'f' })]);
    expect(classifyDom('dom.click', { ref: 'del' }, risky).consequential).toBe(true);
    const consent = page([form({ submitRef: 'yes' })], [element('yes', 'button', 'Yes, I am sure', { formRef: 'f' })]);
    expect(classifyDom('dom.click', { ref: 'yes' }, consent).reasons.map((r) => r.code)).toContain('confirmation');
    const secret = page([form({ fieldRefs: ['q', 'pw'] })], [element('pw', 'textbox', 'Password', { tag: 'input', inputType: 'password', formRef: 'f' })]);
    expect(classifyDom('dom.click', { ref: 'go' }, secret).consequential).toBe(true);
    const money = page([form({ fieldRefs: ['q', 'amt'] })], [element('amt', 'textbox', 'Amount', { tag: 'input', inputType: 'text', formRef: 'f' })]);
    expect(classifyDom('dom.click', { ref: 'go' }, money)).toMatchObject({ consequential: true, payment: true });
  });
});
