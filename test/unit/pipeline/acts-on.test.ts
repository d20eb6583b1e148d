import { describe, expect, it } from 'vitest';
import type { ObservedState } from '../../../src/protocol/observed-state.ts';
import { actsOn, otherResource, sendsTo } from '../../../src/pipeline/acts-on.ts';
import { actingWords } from '../../../src/sidepanel/lib/resource-words.ts';
import { blankSnapshot, element, expectValid, fuse } from '../observation/fixtures/fusion-helpers.ts';

/**
 * Issue 27, item 11: a card, an audit entry and the token's resource scope name what the input
 * acts on — never the page's resource by default — and a form that sends its values elsewhere
 * says where.
 */

const page = (over: Partial<ObservedState> = {}): ObservedState => ({
  ...expectValid(
    fuse({
      snapshot: blankSnapshot({
        url: 'https://shop.test/orders/ORD-7001',
        title: 'Order ORD-7001',
        elements: [element('q', 'textbox', 'Email', { tag: 'input', inputType: 'email', formRef: 'f' }), element('go', 'button', 'Subscribe', { formRef: 'f' })],
        forms: [{ ref: 'f', name: 'Newsletter', method: 'post', action: 'https://mailer.example/subscribe', fieldRefs: ['q'], submitRef: 'go' }],
      }),
    }),
  ),
  resource: { type: 'order', id: 'ORD-7001' },
  resource_identity: { certainty: 'identified' },
  ...over,
});
const ORD_7001 = { type: 'order', id: 'ORD-7001' };

describe('what an action acts on', () => {
  it('a tool’s order_id names the order it cancels, not the page’s', () => {
    const a = actsOn({ action: 'cancel_order', resource: ORD_7001, input: { order_id: 'ORD-7002', reason: 'x' } }, { via: 'webmcp' }, page());
    expect(a).toEqual({ known: true, resource: { type: 'order', id: 'ORD-7002' }, basis: 'the input’s “order_id”' });
    expect(otherResource({ resource: ORD_7001 }, a)).toEqual({ type: 'order', id: 'ORD-7002' });
    expect(actsOn({ action: 'cancel_order', resource: ORD_7001, input: { orderId: 'ORD-7001' } }, { via: 'webmcp' }, page())).toMatchObject({ resource: ORD_7001 });
  });

  it('a tool whose input names nothing acts on something not known, said in words', () => {
    const a = actsOn({ action: 'cancel_latest', resource: ORD_7001, input: { reason: 'late' } }, { via: 'webmcp' }, page());
    expect(a).toMatchObject({ known: false });
    expect(a.basis).toMatch(/names no resource/);
    const words = actingWords({ resource: ORD_7001, resource_identity: { certainty: 'identified' }, acts_on: a });
    expect(words.name).toBe('a resource Steward does not know');
  });

  it('a control of the page acts on the page’s resource; a contract action on the contract’s', () => {
    expect(actsOn({ action: 'dom.click', resource: ORD_7001, input: { ref: 'go' } }, { via: 'legacy_inference' }, page())).toMatchObject({ known: true, resource: ORD_7001 });
    expect(actsOn({ action: 'orders.cancel', resource: ORD_7001, input: { order_id: 'ORD-9' } }, { via: 'site_contract' }, page())).toMatchObject({ resource: ORD_7001 });
  });

  it('the card’s heading names ORD-7002 and says the page shows ORD-7001', () => {
    const acts_on = { known: true as const, resource: { type: 'order', id: 'ORD-7002' }, basis: 'the input’s “order_id”' };
    const words = actingWords({ resource: ORD_7001, resource_identity: { certainty: 'identified' }, acts_on });
    expect(words.name).toBe('order ORD-7002');
    expect(words.doubt).toContain('order ORD-7001');
  });

  it('a form whose action is on another origin says which', () => {
    expect(sendsTo({ action: 'dom.click', input: { ref: 'go' } }, page())).toBe('https://mailer.example');
    const local = page({ forms: [{ ref: 'f', method: 'post', action: 'https://shop.test/subscribe', fields: [], submit_ref: 'go' }] });
    expect(sendsTo({ action: 'dom.click', input: { ref: 'go' } }, local)).toBeUndefined();
  });
});
