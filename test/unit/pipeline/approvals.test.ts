import { describe, expect, it } from 'vitest';
import { ActionRequest } from '../../../src/protocol/action.ts';
import { ApprovalReceipt, type ApprovalReason, type ApprovalRequest } from '../../../src/protocol/approval.ts';
import { ApprovalQueue } from '../../../src/pipeline/approvals.ts';
import { inputHash } from '../../../src/base/hash.ts';
import { checkReceiptBinding, type ReceiptBinding } from '../../../src/storage/receipt-binding.ts';
import type { Source } from '../../../src/protocol/resource.ts';
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

async function card(queue: ApprovalQueue, reasons: ApprovalReason[] = [{ code: 'consequential' }], input = request.input, via: Source = 'site_contract', action = request.action) {
  return queue.enqueue({
    action_id: 'act_1',
    agent_id: 'agent:copilot',
    token_id: 'tok_1',
    origin: ORIGIN,
    request: { ...request, action, input },
    via,
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

/** What a receipt for the card `c` (card() below) is bound to. */
const boundTo = (c: ApprovalRequest) => ({
  action: 'orders.cancel',
  resource: ORDER,
  input_hash: c.input_hash,
  state_version: c.state.state_version,
  agent_id: 'agent:copilot',
  token_id: 'tok_1',
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
    expect(r.receipt).toMatchObject({
      ...boundTo(c),
      scope: 'order:ORD-1024',
      approved_by: 'user:local',
      expires_at: '2026-08-03T11:45:00.000Z',
    });
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

  it('"approve for N minutes" gives a window receipt for a contract action; the card says so', async () => {
    const { queue, clock } = await setup();
    const c = await card(queue);
    expect(c.window).toEqual({ offered: true });
    const r = await queue.decide(approveDecision(c, clock), { window_ms: 10 * 60_000 });
    expect(r.ok && r.status === 'approved' && r.receipt.expires_at).toBe('2026-08-03T11:50:00.000Z');
    const long = await card(queue);
    expect(await queue.decide(approveDecision(long, clock), { window_ms: 2 * 60 * 60_000 })).toMatchObject({ ok: false, problem: 'window_not_allowed' });
  });

  it.each([
    ['a DOM click', [{ code: 'unknown_risk' }], 'legacy_inference', 'dom.click', /DOM and navigation actions/],
    ['a navigation', [{ code: 'not_read_only' }], 'legacy_inference', 'nav.goto', /DOM and navigation actions/],
    ['a payment', [{ code: 'payment' }], 'site_contract', 'orders.pay', /touches money/],
    ['a tainted session', [{ code: 'consequential' }, { code: 'untrusted_input' }], 'site_contract', 'orders.cancel', /page or tool content has reached this agent/],
    ['a form submission', [{ code: 'form_submission' }], 'site_contract', 'orders.cancel', /submits a form/],
    ['a risky control', [{ code: 'risky_control' }], 'site_contract', 'orders.cancel', /presses a control/],
    ['an action inside the page (adapter)', [{ code: 'consequential' }], 'adapter', 'orders.cancel', /runs inside the page/],
    ['a WebMCP tool', [{ code: 'consequential' }], 'webmcp', 'book', /runs inside the page/],
  ] as const)('no window for %s: the card says why, and decide refuses one', async (_what, reasons, via, action, why) => {
    const { queue, clock } = await setup();
    const c = await card(queue, [...reasons], request.input, via, action);
    expect(c.window).toMatchObject({ offered: false, why_not: expect.stringMatching(why) });
    expect(await queue.decide(approveDecision(c, clock), { window_ms: 60_000 })).toMatchObject({ ok: false, problem: 'window_not_allowed' });
    expect(await queue.pending()).toHaveLength(1);
  });

  it('a stored card that says nothing about windows (an older version) offers none', async () => {
    const { queue, clock } = await setup();
    const c = await card(queue);
    const store = (queue as unknown as { store: ApprovalStore }).store;
    const stored = (await store.request(c.request_id))!;
    const { window: _omit, ...older } = stored.request;
    await (store as unknown as { db: { put: (s: string, v: unknown) => Promise<unknown> } }).db.put('approvals', { ...stored, request: older });
    expect(await queue.decide(approveDecision(c, clock), { window_ms: 60_000 })).toMatchObject({ ok: false, problem: 'window_not_allowed' });
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
      ...boundTo(c),
      via: 'site_contract',
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

  it('a window receipt covers the same action, resource and input at other states, by many actions, until expiry', async () => {
    const { queue, clock, receipt: rc, binding } = await receipt(10 * 60_000);
    expect(await queue.consume(rc.receipt_id, { ...binding, state_version: 'fp-abcdef' })).toEqual({ ok: true });
    expect(await queue.consume(rc.receipt_id, { ...binding, action_id: 'act_2' })).toEqual({ ok: true });
    // Bound to what the person saw: not other input.
    expect(await queue.consume(rc.receipt_id, { ...binding, input_hash: `sha256:${'1'.repeat(64)}` })).toMatchObject({ ok: false, problem: 'input_mismatch' });
    expect(await queue.consume(rc.receipt_id, { ...binding, action: 'orders.pay' })).toMatchObject({ ok: false, problem: 'action_mismatch' });
    expect(await queue.consume(rc.receipt_id, { ...binding, resource: { type: 'order', id: 'X' } })).toMatchObject({ ok: false, problem: 'resource_mismatch' });
    // Judged again at every use: whatever a window may not cover now, it does not cover.
    for (const reasons of [['payment'], ['consequential', 'untrusted_input'], ['form_submission'], ['risky_control']] as const) {
      expect(await queue.consume(rc.receipt_id, { ...binding, reasons })).toMatchObject({ ok: false, problem: 'not_covered' });
    }
    expect(await queue.consume(rc.receipt_id, { ...binding, via: 'adapter' })).toMatchObject({ ok: false, problem: 'not_covered' });
    clock.advance(10 * 60_000);
    expect(await queue.consume(rc.receipt_id, binding)).toMatchObject({ ok: false, problem: 'expired' });
  });

  it('a window stored for a DOM click (by an older version) covers neither that click nor any other control', async () => {
    const { receipt: rc, binding, clock } = await receipt(10 * 60_000);
    const click = { ...rc, action: 'dom.click' };
    const stored = { receipt: click, mode: 'resource_window' as const, used_by: [] };
    const update = { ...binding, action: 'dom.click', via: 'legacy_inference' as const, reasons: ['form_submission' as const] };
    const cancel = { ...update, action_id: 'act_9', input_hash: `sha256:${'2'.repeat(64)}`, reasons: ['form_submission' as const, 'risky_control' as const] };
    expect(checkReceiptBinding(stored, { ...update, reasons: ['unknown_risk'] }, clock.t)).toMatchObject({ ok: false, problem: 'not_covered' });
    expect(checkReceiptBinding(stored, cancel, clock.t)).toMatchObject({ ok: false, problem: 'not_covered' });
  });

  it('an exact receipt for a click in a form binds the form values: other values are refused', async () => {
    const { receipt: rc, binding, clock } = await receipt();
    const hash = (n: number) => `sha256:${String(n).repeat(64)}`;
    const stored = { receipt: { ...rc, form_hash: hash(4) }, mode: 'exact' as const, used_by: [] };
    expect(checkReceiptBinding(stored, { ...binding, form_hash: hash(4) }, clock.t)).toEqual({ ok: true });
    expect(checkReceiptBinding(stored, { ...binding, form_hash: hash(7) }, clock.t)).toMatchObject({ ok: false, problem: 'form_changed' });
    expect(checkReceiptBinding(stored, binding, clock.t)).toMatchObject({ ok: false, problem: 'form_changed' });
  });

  it('checkReceiptBinding is pure and checks expiry first', async () => {
    const { receipt: rc, binding } = await receipt();
    expect(checkReceiptBinding({ receipt: rc, mode: 'exact', used_by: [] }, { ...binding, input_hash: 'x' }, Date.parse(rc.expires_at))).toMatchObject({ ok: false, problem: 'expired' });
  });
});
