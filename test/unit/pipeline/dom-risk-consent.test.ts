import { describe, expect, it } from 'vitest';
import type { PageSnapshot, SnapshotElement } from '../../../src/protocol/snapshot.ts';
import type { ObservedState } from '../../../src/protocol/observed-state.ts';
import { classifyDom } from '../../../src/pipeline/policy/dom-risk.ts';
import { blankSnapshot, element, expectValid, fuse } from '../observation/fixtures/fusion-helpers.ts';

/**
 * Issue 27, items 4 and 11: a page's own confirmation or consent step is the person's (an agent
 * answering it is consequential, whatever the control is dressed as), and payment is what moves
 * money — an amount, a card field, a word that means paying — never "subscribe" by itself.
 */

function observed(elements: SnapshotElement[], forms: PageSnapshot['forms'] = [], containers: PageSnapshot['containers'] = []): ObservedState {
  return expectValid(fuse({ snapshot: blankSnapshot({ url: 'https://lab.test/consent', elements, forms, containers }) }));
}
const codes = (c: { reasons: Array<{ code: string }> }) => c.reasons.map((r) => r.code);

describe('self-approval: the page’s confirmation step', () => {
  const o = observed(
    [
      element('yes', 'link', 'Yes, I’m sure', { tag: 'a', href: 'https://lab.test/consent/notes#' }),
      element('keep', 'link', 'Keep it', { tag: 'a', href: 'https://lab.test/consent/notes#' }),
      element('ok', 'button', 'OK', { container: { ref: 'dlg', row: 1 } }),
      element('no', 'button', 'No', { container: { ref: 'dlg', row: 1 } }),
      element('go', 'button', 'Remove everything', { container: { ref: 'dlg', row: 1 } }),
      element('agree', 'checkbox', 'I agree to the terms and the charge', { tag: 'input', inputType: 'checkbox', formRef: 'f1' }),
      element('gift', 'checkbox', 'Gift wrap', { tag: 'input', inputType: 'checkbox', formRef: 'f1' }),
      element('help', 'link', 'Help', { tag: 'a', href: 'https://lab.test/help' }),
    ],
    [{ ref: 'f1', name: 'Checkout', method: 'post', action: 'https://lab.test/consent/checkout', fieldRefs: ['agree', 'gift'] }],
    [{ ref: 'dlg', role: 'alertdialog', name: 'Delete “Tax records”?', rows: 1 }],
  );

  it('a link named “Yes, I’m sure” is not a harmless look around: it answers the page', () => {
    const c = classifyDom('dom.click', { ref: 'yes' }, o);
    expect(c).toMatchObject({ read_only: false, consequential: true });
    expect(codes(c)).toContain('confirmation');
  });

  it('any button of an open alertdialog answers it, naming the dialog; a button that only closes it does not', () => {
    for (const ref of ['ok', 'go']) {
      const c = classifyDom('dom.click', { ref }, o);
      expect(codes(c)).toContain('confirmation');
      expect(c.reasons.find((r) => r.code === 'confirmation')!.detail).toContain('Delete “Tax records”?');
    }
    expect(codes(classifyDom('dom.click', { ref: 'no' }, o))).not.toContain('confirmation');
    expect(classifyDom('dom.click', { ref: 'keep' }, o)).toMatchObject({ read_only: true });
  });

  it('a consent box is the person’s even inside a form (ticking it is not just editing the form); a gift-wrap box is not', () => {
    expect(codes(classifyDom('dom.check', { ref: 'agree', checked: true }, o))).toEqual(['confirmation']);
    expect(classifyDom('dom.check', { ref: 'agree', checked: true }, o)).toMatchObject({ consequential: true });
    expect(classifyDom('dom.check', { ref: 'gift', checked: true }, o)).toMatchObject({ read_only: true, reasons: [] });
  });

  it('Enter on the confirming link is judged as clicking it', () => {
    expect(codes(classifyDom('dom.press', { ref: 'yes', key: 'Enter' }, o))).toContain('confirmation');
  });

  it('an ordinary link stays a read-only look around', () => {
    expect(classifyDom('dom.click', { ref: 'help' }, o)).toMatchObject({ read_only: true, consequential: false });
  });
});

describe('payment is what moves money, not a word', () => {
  const o = observed(
    [
      element('email', 'textbox', 'Email', { tag: 'input', inputType: 'email', formRef: 'news' }),
      element('sub', 'button', 'Subscribe', { formRef: 'news' }),
      element('plan', 'button', 'Subscribe — $9.99/month'),
      element('tipfield', 'textbox', 'Tip amount', { tag: 'input', inputType: 'number', formRef: 'tips' }),
      element('send', 'button', 'Send', { formRef: 'tips' }),
      element('cardno', 'textbox', 'Card number', { tag: 'input', inputType: 'text', formRef: 'co' }),
      element('next', 'button', 'Continue', { formRef: 'co' }),
      element('pay', 'button', 'Pay now'),
    ],
    [
      { ref: 'news', name: 'Newsletter', method: 'post', action: 'https://lab.test/consent/subscribe', fieldRefs: ['email'], submitRef: 'sub' },
      { ref: 'tips', name: 'Tip the author', method: 'post', action: 'https://lab.test/tip', fieldRefs: ['tipfield'], submitRef: 'send' },
      { ref: 'co', name: 'Checkout', method: 'post', action: 'https://lab.test/co', fieldRefs: ['cardno'], submitRef: 'next' },
    ],
  );

  it('a newsletter’s Subscribe submits a form (a card for the person), but moves no money', () => {
    const c = classifyDom('dom.click', { ref: 'sub' }, o);
    expect(c).toMatchObject({ consequential: true, payment: false });
    expect(codes(c)).not.toContain('payment');
  });

  it('a subscription with its price on the button, a form that takes an amount or a card, and “Pay now” all move money', () => {
    for (const ref of ['plan', 'send', 'next', 'pay']) expect(classifyDom('dom.click', { ref }, o), ref).toMatchObject({ payment: true });
    expect(classifyDom('dom.press', { ref: 'tipfield', key: 'Enter' }, o)).toMatchObject({ payment: true });
  });
});
