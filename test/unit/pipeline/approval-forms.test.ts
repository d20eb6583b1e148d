import { describe, expect, it } from 'vitest';
import { boundForm } from '../../../src/pipeline/form-binding.ts';
import { approve, FakeShop, harness, ORDER, type Harness } from './fakes.ts';

/**
 * Item 2 of issue 11, as a hostile agent plays it: get a click on a form's submit approved with
 * one value, then change the value before the approved click runs.
 */

const type = (h: Harness, text: string, key: string, session_id = h.agent.session_id) =>
  h.pipeline.submit({ action: 'dom.type', resource: ORDER, input: { ref: 'e3', text, clear: true }, idempotency_key: key }, { ...h.agent, session_id });
const clickSave = (h: Harness, key = 'save') => h.pipeline.submit({ action: 'dom.click', resource: ORDER, input: { ref: 'e5' }, idempotency_key: key }, h.agent);
const typeClearing = (shop: FakeShop) => {
  // The fake appends what is typed; `clear: true` replaces, as the content script does.
  shop.beforeEffect = (call) => {
    if (call.action === 'dom.type' && (call.input as { clear?: boolean }).clear) shop.orders.get(call.resource.id)!.note = '';
  };
};

async function submitWithFour() {
  const h = await harness();
  typeClearing(h.shop);
  expect(await type(h, '4', 't4')).toMatchObject({ execution: { status: 'confirmed' } });
  const pending = clickSave(h);
  const card = await h.panel.next();
  return { h, pending, card };
}

describe('a click that submits a form binds the form’s values', () => {
  it('the card shows the values it would send, and their hash goes into the receipt', async () => {
    const { h, pending, card } = await submitWithFour();
    expect(card.reasons.map((r) => r.code)).toContain('form_submission');
    expect(card.form).toMatchObject({
      ref: 'f1',
      name: 'Notes',
      fields: [
        { ref: 'e3', name: 'note', value: '4' },
        { ref: 'e4', name: 'secret' },
      ],
    });
    expect(card.window).toMatchObject({ offered: false });
    await approve(h, card);
    await pending;
    const click = h.shop.calls.execute.find((c) => c.action === 'dom.click')!;
    // The executor is told which values the person approved, so the click is refused if they differ then.
    expect(click.form).toEqual([{ ref: 'e3', value: '4' }, { ref: 'e4' }]);
    const [approval] = await h.pipeline.deps.approvals.forAction(click.action_id);
    const receipt = await (h.pipeline.deps.approvals as unknown as { store: { receipt(id: string): Promise<{ receipt: { form_hash?: string } }> } }).store.receipt(approval!.receipt_id!);
    expect(receipt.receipt.form_hash).toBe(card.form!.hash);
  });

  it('while the card waits, the same session cannot type into that form: IN_PROGRESS, and 4 is what is sent', async () => {
    const { h, pending, card } = await submitWithFour();
    const sneaky = await type(h, '17', 't17');
    expect(sneaky).toMatchObject({ error: { code: 'IN_PROGRESS', retryable: true, details: { approval_request_id: card.request_id, form_ref: 'f1' } } });
    expect(h.shop.orders.get('ORD-1024')!.note).toBe('4');
    // Another click on the same form's controls waits too.
    expect(await clickSave(h, 'save-again')).toMatchObject({ error: { code: 'IN_PROGRESS' } });
    await approve(h, card);
    // The fake's Save has no visible effect: the click ran, its outcome is unknown, never an error.
    expect(await pending).toMatchObject({ execution: { status: 'unknown' } });
    expect(h.shop.calls.execute.filter((c) => c.action === 'dom.click').map((c) => c.form)).toEqual([[{ ref: 'e3', value: '4' }, { ref: 'e4' }]]);
    expect(h.shop.calls.execute.filter((c) => c.action === 'dom.type').map((c) => (c.input as { text: string }).text)).toEqual(['4']);
    // Once decided, the form is free again.
    expect(await type(h, '5', 't5')).toMatchObject({ execution: { status: 'confirmed' } });
  });

  it('a value changed after the card appeared by anything else (another session, the page) voids the approval: nothing is clicked', async () => {
    const { h, pending, card } = await submitWithFour();
    expect(await type(h, '17', 'other-session', 's2')).toMatchObject({ execution: { status: 'confirmed' } });
    await approve(h, card);
    expect(await pending).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'form_changed' } } });
    expect(h.shop.calls.execute.filter((c) => c.action === 'dom.click')).toHaveLength(0);
  });

  it('boundForm: only for a dom.click on a control of a form; checked states are part of the values', async () => {
    const o = new FakeShop().observation('ORD-1024')!;
    expect(await boundForm({ action: 'dom.click', input: { ref: 'e1' } }, o)).toBeUndefined();
    expect(await boundForm({ action: 'dom.type', input: { ref: 'e3', text: 'x' } }, o)).toBeUndefined();
    const a = await boundForm({ action: 'dom.click', input: { ref: 'e5' } }, o);
    const checked = { ...o, elements: o.elements!.map((e) => (e.ref === 'e4' ? { ...e, states: ['checked' as const] } : e)) };
    const b = await boundForm({ action: 'dom.click', input: { ref: 'e5' } }, checked);
    expect(b!.fields[1]).toMatchObject({ ref: 'e4', check: 'checked' });
    expect(b!.hash).not.toBe(a!.hash);
    const typed = { ...o, forms: o.forms!.map((f) => ({ ...f, fields: f.fields.map((x) => (x.ref === 'e3' ? { ...x, value: '17' } : x)) })) };
    expect((await boundForm({ action: 'dom.click', input: { ref: 'e3' } }, typed))!.hash).not.toBe(a!.hash);
  });
});
