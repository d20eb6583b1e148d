import { describe, expect, it } from 'vitest';
import { ActionRequest } from '../../../src/protocol/action.ts';
import { ApprovalReceipt, type ApprovalReason } from '../../../src/protocol/approval.ts';
import { ApprovalQueue } from '../../../src/pipeline/approvals.ts';
import { inputHash } from '../../../src/pipeline/hash.ts';
import { checkReceiptBinding, type ReceiptBinding } from '../../../src/pipeline/receipt-binding.ts';
import { ApprovalStore } from '../../../src/storage/approval-store.ts';
import { FakeClock, freshFactory, openDb } from '../storage/helpers.ts';
import { FakePanel, FakeShop, ORDER, ORIGIN } from './fakes.ts';

const request = ActionRequest.parse({ action: 'orders.cancel', resource: ORDER, input: { reason: 'ordered_by_mistake' }, idempotency_key: 'k1', rationale: 'The user asked me to.' });
const observed = new FakeShop().observation('ORD-1024')!;

async function setup(factory = freshFactory(), clock = new FakeClock()) {
  const panel = new FakePanel();
  const queue = new ApprovalQueue(new ApprovalStore(await openDb(factory)), clock.now, panel);
  return { queue, panel, clock, factory };
}

async function card(queue: ApprovalQueue, reasons: ApprovalReason[] = [{ code: 'consequential' }], input = request.input) {
  return queue.enqueue({
    action_id: 'act_1',
    agent_id: 'agent:copilot',
    token_id: 'tok_1',
    origin: ORIGIN,
    request: { ...request, input },
    via: 'adapter',
    input_hash: await inputHash(input),
    observed,
    reasons,
  });
}

const approveDecision = (c: { request_id: string; input_hash: string; state: { state_version: string | number } }, clock: FakeClock) => ({
  request_id: c.request_id,
  decision: 'approve' as const,
  decided_by: 'user:local',
  decided_at: new Date(clock.t).toISOString(),
  input_hash: c.input_hash,
  state_version: c.state.state_version,
});

describe('ApprovalQueue', () => {
  it('queues a card with everything a person needs, built from the actual action, and tells the panel', async () => {
    const { queue, panel } = await setup();
    const c = await card(queue);
    expect(c).toMatchObject({
      agent_id: 'agent:copilot',
      token_id: 'tok_1',
      origin: ORIGIN,
      action: 'orders.cancel',
      resource: ORDER,
      input: { reason: 'ordered_by_mistake' },
      input_hash: await inputHash({ reason: 'ordered_by_mistake' }),
      idempotency_key: 'k1',
      state: { state: 'awaiting_payment', state_version: observed.state_version, evidence: observed.evidence, confidence: 0.9, conflicts: [] },
      reasons: [{ code: 'consequential' }],
      rationale: 'The user asked me to.',
      requested_at: '2026-08-03T11:40:00.000Z',
      expires_at: '2026-08-03T11:45:00.000Z',
    });
    expect(panel.cards).toEqual([c]);
    expect((await queue.pending()).map((p) => p.request_id)).toEqual([c.request_id]);
  });

  it('approve issues a receipt bound to action, resource, input hash, state_version, agent and token, with an expiry', async () => {
    const { queue, clock } = await setup();
    const c = await card(queue);
    const r = await queue.decide(approveDecision(c, clock));
    expect(r.ok && r.status).toBe('approved');
    if (!r.ok || r.status !== 'approved') return;
    expect(ApprovalReceipt.parse(r.receipt)).toEqual(r.receipt);
    expect(r.receipt).toMatchObject({ action: 'orders.cancel', resource: ORDER, input_hash: c.input_hash, state_version: c.state.state_version, agent_id: 'agent:copilot', token_id: 'tok_1', scope: 'order:ORD-1024', approved_by: 'user:local', expires_at: '2026-08-03T11:45:00.000Z' });
    expect(await queue.pending()).toEqual([]);
    expect(await queue.decide(approveDecision(c, clock))).toMatchObject({ ok: false, problem: 'already_decided' });
  });

  it('deny settles the card; waiting callers hear it', async () => {
    const { queue, clock, panel } = await setup();
    const c = await card(queue);
    const waiting = queue.wait(c.request_id);
    await queue.decide({ request_id: c.request_id, decision: 'deny', decided_by: 'user:local', decided_at: new Date(clock.t).toISOString(), reason: 'no' });
    expect(await waiting).toEqual({ kind: 'denied', reason: 'no' });
    expect(panel.settledLog).toEqual([[c.request_id, 'denied']]);
  });

  it('refuses a decision made on a stale card (other input or state than the request holds)', async () => {
    const { queue, clock } = await setup();
    const c = await card(queue);
    expect(await queue.decide({ ...approveDecision(c, clock), input_hash: await inputHash({ reason: 'other' }) })).toMatchObject({ ok: false, problem: 'stale_card' });
    expect(await queue.decide({ ...approveDecision(c, clock), state_version: 'fp-999999' })).toMatchObject({ ok: false, problem: 'stale_card' });
    expect(await queue.decide({ ...approveDecision(c, clock), request_id: 'apreq_nope' })).toMatchObject({ ok: false, problem: 'unknown_request' });
    expect(await queue.decide({ request_id: c.request_id, decision: 'maybe' } as never)).toMatchObject({ ok: false, problem: 'invalid_decision' });
  });

  it('an expired card cannot be approved and ends as expired', async () => {
    const { queue, clock } = await setup();
    const c = await card(queue);
    clock.advance(5 * 60_000);
    expect(await queue.decide(approveDecision(c, clock))).toMatchObject({ ok: false, problem: 'expired' });
    expect(await queue.outcome(c.request_id)).toEqual({ kind: 'expired' });
    expect(await queue.pending()).toEqual([]);
  });

  it('cards and decisions persist across a restart', async () => {
    const factory = freshFactory();
    const clock = new FakeClock();
    const a = await setup(factory, clock);
    const c = await card(a.queue);
    const b = await setup(factory, clock);
    expect((await b.queue.pending()).map((p) => p.request_id)).toEqual([c.request_id]);
    const r = await b.queue.decide(approveDecision(c, clock));
    const c2 = await setup(factory, clock);
    const outcome = await c2.queue.outcome(c.request_id);
    expect(outcome).toMatchObject({ kind: 'approved', receipt: { receipt_id: r.ok && r.status === 'approved' ? r.receipt.receipt_id : 'x' } });
  });

  it('"approve for N minutes" gives a window receipt; never for payment or untrusted input', async () => {
    const { queue, clock } = await setup();
    const c = await card(queue);
    const r = await queue.decide(approveDecision(c, clock), { window_ms: 10 * 60_000 });
    expect(r.ok && r.status === 'approved' && r.receipt.expires_at).toBe('2026-08-03T11:50:00.000Z');
    const pay = await card(queue, [{ code: 'payment' }]);
    expect(await queue.decide(approveDecision(pay, clock), { window_ms: 60_000 })).toMatchObject({ ok: false, problem: 'window_not_allowed' });
    const tainted = await card(queue, [{ code: 'untrusted_input' }]);
    expect(await queue.decide(approveDecision(tainted, clock), { window_ms: 60_000 })).toMatchObject({ ok: false, problem: 'window_not_allowed' });
    expect(await queue.decide(approveDecision(tainted, clock), { window_ms: 2 * 60 * 60_000 })).toMatchObject({ ok: false, problem: 'window_not_allowed' });
  });
});

describe('receipt binding', () => {
  async function receipt(window?: number) {
    const { queue, clock } = await setup();
    const c = await card(queue);
    const r = await queue.decide(approveDecision(c, clock), window ? { window_ms: window } : {});
    if (!r.ok || r.status !== 'approved') throw new Error('not approved');
    const binding: ReceiptBinding = {
      action_id: 'act_1',
      action: 'orders.cancel',
      resource: ORDER,
      input_hash: c.input_hash,
      state_version: c.state.state_version,
      agent_id: 'agent:copilot',
      token_id: 'tok_1',
      reasons: ['consequential'],
    };
    return { queue, clock, receipt: r.receipt, binding };
  }

  it('an exact receipt authorises exactly its binding, once', async () => {
    const { queue, receipt: rc, binding } = await receipt();
    expect(await queue.consume(rc.receipt_id, binding)).toEqual({ ok: true });
    // Re-entry by the same action (recovery after a restart) is allowed; another action is not.
    expect(await queue.consume(rc.receipt_id, binding)).toEqual({ ok: true });
    expect(await queue.consume(rc.receipt_id, { ...binding, action_id: 'act_2' })).toMatchObject({ ok: false, problem: 'used' });
  });

  it.each([
    ['input_mismatch', { input_hash: `sha256:${'0'.repeat(64)}` }],
    ['state_changed', { state_version: 'fp-abcdef' }],
    ['action_mismatch', { action: 'orders.pay' }],
    ['resource_mismatch', { resource: { type: 'order', id: 'ORD-2048' } }],
    ['agent_mismatch', { agent_id: 'agent:other' }],
    ['agent_mismatch', { token_id: 'tok_2' }],
  ])('is refused for %s', async (problem, change) => {
    const { queue, receipt: rc, binding } = await receipt();
    expect(await queue.consume(rc.receipt_id, { ...binding, ...change } as ReceiptBinding)).toMatchObject({ ok: false, problem });
  });

  it('is refused once expired, and when unknown', async () => {
    const { queue, clock, receipt: rc, binding } = await receipt();
    clock.advance(5 * 60_000);
    expect(await queue.consume(rc.receipt_id, binding)).toMatchObject({ ok: false, problem: 'expired' });
    expect(await queue.consume('approval_nope', binding)).toMatchObject({ ok: false, problem: 'unknown' });
  });

  it('a window receipt covers other input and state on the same action and resource, by many actions, until expiry', async () => {
    const { queue, clock, receipt: rc, binding } = await receipt(10 * 60_000);
    expect(await queue.consume(rc.receipt_id, { ...binding, input_hash: `sha256:${'1'.repeat(64)}`, state_version: 'fp-abcdef' })).toEqual({ ok: true });
    expect(await queue.consume(rc.receipt_id, { ...binding, action_id: 'act_2' })).toEqual({ ok: true });
    expect(await queue.consume(rc.receipt_id, { ...binding, action: 'orders.pay' })).toMatchObject({ ok: false, problem: 'action_mismatch' });
    expect(await queue.consume(rc.receipt_id, { ...binding, resource: { type: 'order', id: 'X' } })).toMatchObject({ ok: false, problem: 'resource_mismatch' });
    expect(await queue.consume(rc.receipt_id, { ...binding, reasons: ['payment'] })).toMatchObject({ ok: false, problem: 'not_covered' });
    clock.advance(10 * 60_000);
    expect(await queue.consume(rc.receipt_id, binding)).toMatchObject({ ok: false, problem: 'expired' });
  });

  it('checkReceiptBinding is pure and checks expiry first', async () => {
    const { receipt: rc, binding } = await receipt();
    expect(checkReceiptBinding({ receipt: rc, mode: 'exact', used_by: [] }, { ...binding, input_hash: 'x' }, Date.parse(rc.expires_at))).toMatchObject({ ok: false, problem: 'expired' });
  });
});
