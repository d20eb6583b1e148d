import { describe, expect, it } from 'vitest';
import { ActionResult, isErrorResult } from '../../../src/protocol/results.ts';
import { isConfirmedDone } from '../protocol/helpers.ts';
import { ORDER, ORIGIN, approve, approveNext, cancelRequest, exactReceipt, harness, orderUrl, restart, type Harness } from './fakes.ts';

const errorCode = (r: ActionResult) => (isErrorResult(r) ? r.error.code : undefined);

async function journalStates(h: Harness, actionId: string) {
  return (await h.pipeline.deps.journal.history(actionId)).map((e) => e.state);
}

describe('Pipeline.submit', () => {
  it('runs a read-only action inside scope without approval, and confirms it', async () => {
    const h = await harness();
    const out = await h.pipeline.submitDetailed({ action: 'orders.view', resource: ORDER, idempotency_key: 'view_1' }, h.agent);
    const r = out.result;
    expect(ActionResult.parse(r)).toBeTruthy();
    expect(isErrorResult(r)).toBe(false);
    expect(h.panel.cards).toHaveLength(0);
    expect(h.shop.calls.execute).toHaveLength(1);
    if (isErrorResult(r)) return;
    expect(r.execution).toMatchObject({ status: 'confirmed', certainty: 'inferred', verified_by: 'postcondition' });
    expect(r.audit_receipt).toMatch(/^audit_\d+$/);
    expect(await journalStates(h, r.action_id)).toEqual(['proposed', 'dispatched', 'confirmed']);
    expect(out.timings.overhead_ms).toBeGreaterThanOrEqual(0);
    expect(out.timings.total_ms).toBeGreaterThanOrEqual(out.timings.overhead_ms);
  });

  it('a consequential action waits for the side panel, then runs once and is confirmed by its expected effect', async () => {
    const h = await harness();
    const pending = h.pipeline.submit(cancelRequest(), h.agent);
    const card = await approveNext(h);
    expect(card).toMatchObject({ agent_id: 'agent:copilot', token_id: h.token.token_id, origin: ORIGIN, action: 'orders.cancel', resource: ORDER, input: { reason: 'ordered_by_mistake' } });
    expect(card.reasons.map((r) => r.code)).toEqual(['consequential', 'not_read_only']);
    expect(card.state).toMatchObject({ state: 'awaiting_payment', confidence: 0.9, conflicts: [] });
    const r = await pending;
    expect(isConfirmedDone(r)).toBe(true);
    if (isErrorResult(r)) return;
    expect(r.resource).toMatchObject({ state: 'cancelled' });
    expect(h.shop.calls.execute).toHaveLength(1);
    expect(await journalStates(h, r.action_id)).toEqual(['proposed', 'awaiting_approval', 'approved', 'dispatched', 'confirmed']);
    expect(await h.pipeline.deps.audit.verify()).toMatchObject({ ok: true });
    const kinds = (await h.pipeline.deps.audit.entries()).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['proposal', 'observation', 'approval_request', 'approval', 'dispatch', 'confirmation']));
  });

  it('deny → APPROVAL_DENIED, nothing executed, and the same key keeps the denial', async () => {
    const h = await harness();
    const req = cancelRequest();
    const pending = h.pipeline.submit(req, h.agent);
    const card = await h.panel.next();
    await h.pipeline.deps.approvals.decide({ request_id: card.request_id, decision: 'deny', decided_by: 'user:local', decided_at: new Date(h.clock.t).toISOString(), reason: 'not now' });
    const r = await pending;
    expect(errorCode(r)).toBe('APPROVAL_DENIED');
    expect(h.shop.calls.execute).toHaveLength(0);
    expect(h.shop.orders.get('ORD-1024')!.state).toBe('awaiting_payment');
    expect(await journalStates(h, r.action_id!)).toEqual(['proposed', 'awaiting_approval', 'denied']);
    expect(errorCode(await h.pipeline.submit(req, h.agent))).toBe('APPROVAL_DENIED');
    expect(h.panel.cards).toHaveLength(1);
  });

  it('refuses an invalid request, an unknown or revoked token, and out-of-scope actions before anything runs', async () => {
    const h = await harness();
    expect(errorCode(await h.pipeline.submit({ action: 'orders.cancel', resource: ORDER }, h.agent))).toBe('INVALID_INPUT');
    expect(errorCode(await h.pipeline.submit(cancelRequest(), { ...h.agent, token: 'tok_forged' }))).toBe('TOKEN_INVALID');
    expect(errorCode(await h.pipeline.submit(cancelRequest(), { ...h.agent, agent_id: 'agent:other' }))).toBe('TOKEN_INVALID');
    const narrow = await h.pipeline.deps.tokens.mint({ agent_id: 'agent:copilot', scope: ['orders:view'], resource_scope: 'order:ORD-1024', origins: [ORIGIN], ttl_ms: 60_000 });
    const agent = { ...h.agent, token: narrow.secret };
    const denied = await h.pipeline.submit(cancelRequest(), agent);
    expect(errorCode(denied)).toBe('SCOPE_DENIED');
    expect(errorCode(await h.pipeline.submit({ ...cancelRequest(), resource: { type: 'order', id: 'ORD-2048' } }, agent))).toBe('SCOPE_DENIED');
    await h.pipeline.deps.tokens.revoke(narrow.token.token_id);
    expect(errorCode(await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v' }, agent))).toBe('TOKEN_INVALID');
    expect(h.shop.calls.execute).toHaveLength(0);
    expect(h.panel.cards).toHaveLength(0);
    // The scope refusal after observation is journaled as failed; its key is free again.
    expect(await journalStates(h, denied.action_id!)).toEqual(['proposed', 'failed']);
    expect(await h.pipeline.deps.audit.verify()).toMatchObject({ ok: true });
  });

  it('PRECONDITION_FAILED when the state changed behind the agent’s back, in the DESIGN shape', async () => {
    const h = await harness({ token: { scope: ['orders:*'] } });
    h.shop.ship('ORD-1024');
    const r = await h.pipeline.submit(cancelRequest({ preconditions: { expected_state: 'awaiting_payment', state_version: 'fp-100011' } }), h.agent);
    expect(ActionResult.parse(r)).toBeTruthy();
    expect(r).toMatchObject({
      error: { code: 'PRECONDITION_FAILED', retryable: false },
      expected: { state: 'awaiting_payment', state_version: 'fp-100011' },
      current: { state: 'shipped', state_version: 'fp-100015' },
      recovery_hint: 'Refresh the resource state and re-plan using an available action.',
    });
    if (!isErrorResult(r)) return;
    expect(r.available_actions).toEqual(
      expect.arrayContaining([
        { action: 'orders.track', requires_approval: false, via: 'adapter' },
        { action: 'orders.view', requires_approval: false, via: 'adapter' },
      ]),
    );
    expect(h.shop.calls.execute).toHaveLength(0);
  });

  it('writes `dispatched` to the journal before the executor is called', async () => {
    const h = await harness();
    const seen: string[] = [];
    h.shop.beforeEffect = async (call) => {
      seen.push((await h.pipeline.deps.journal.action(call.action_id))!.state);
    };
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v1' }, h.agent);
    expect(seen).toEqual(['dispatched']);
  });

  it('navigates to the resource when the tab shows something else, via a verified route', async () => {
    const h = await harness();
    h.shop.tabUrl = `${ORIGIN}/`;
    h.shop.routes = [{ kind: 'adapter', url: orderUrl('ORD-2048') }];
    const r = await h.pipeline.submit({ action: 'orders.track', resource: { type: 'order', id: 'ORD-2048' }, idempotency_key: 't1' }, h.agent);
    expect(isErrorResult(r)).toBe(false);
    expect(h.shop.calls.navigate).toEqual([orderUrl('ORD-2048')]);
  });

  it('remembers where the resource was and uses it as a verified hint next time', async () => {
    const h = await harness();
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v1' }, h.agent);
    h.shop.tabUrl = `${ORIGIN}/`;
    const r = await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v2' }, h.agent);
    expect(isErrorResult(r)).toBe(false);
    expect(h.shop.calls.navigate).toEqual([orderUrl('ORD-1024')]);
  });

  it('TOOL_NOT_FOUND with the available actions when the action is not offered here', async () => {
    const h = await harness();
    const r = await h.pipeline.submit({ action: 'orders.refund', resource: ORDER, idempotency_key: 'r1' }, h.agent);
    expect(errorCode(r)).toBe('TOOL_NOT_FOUND');
    expect(isErrorResult(r) && r.available_actions?.map((a) => (typeof a === 'string' ? a : a.action))).toContain('orders.cancel');
  });

  it('QUOTA_EXCEEDED is retryable, with the same key', async () => {
    const h = await harness({ pipeline: { limits: () => ({ per_minute: 1, per_day: 100 }) } });
    expect(isErrorResult(await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'q1' }, h.agent))).toBe(false);
    const r = await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'q2' }, h.agent);
    expect(r).toMatchObject({ error: { code: 'QUOTA_EXCEEDED', retryable: true, retry_after_ms: 60_000 } });
    h.clock.advance(60_000);
    expect(isErrorResult(await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'q2' }, h.agent))).toBe(false);
  });

  it('payment needs a token that allows payment, and then approval', async () => {
    const h = await harness();
    const r = await h.pipeline.submit({ action: 'orders.pay', resource: ORDER, idempotency_key: 'p1' }, h.agent);
    expect(errorCode(r)).toBe('SCOPE_DENIED');
    const payer = await h.pipeline.deps.tokens.mint({ agent_id: 'agent:copilot', scope: ['orders:*'], resource_scope: 'order:*', origins: [ORIGIN], payment: true, ttl_ms: 60_000 });
    const pending = h.pipeline.submit({ action: 'orders.pay', resource: ORDER, idempotency_key: 'p2' }, { ...h.agent, token: payer.secret });
    const card = await approveNext(h);
    expect(card.reasons.map((x) => x.code)).toContain('payment');
    await pending;
  });

  it('input from untrusted content needs approval even for a read-only action', async () => {
    const h = await harness();
    const pending = h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'u1' }, { ...h.agent, untrusted_input: true });
    const card = await approveNext(h);
    expect(card.reasons.map((x) => x.code)).toEqual(['untrusted_input']);
    expect(isErrorResult(await pending)).toBe(false);
  });
});

describe('Pipeline: approval receipts presented by the agent', () => {
  async function receiptFor(h: Harness, req: ReturnType<typeof cancelRequest>) {
    // The agent asks without waiting; the person approves; the action then runs in the background.
    const first = await h.pipeline.submit(req, { ...h.agent, wait_for_approval: false });
    expect(errorCode(first)).toBe('APPROVAL_REQUIRED');
    return first;
  }

  it('wait_for_approval: false returns APPROVAL_REQUIRED at once; the same key is IN_PROGRESS until it ends, then replays the result', async () => {
    const h = await harness();
    const req = cancelRequest();
    const first = await receiptFor(h, req);
    expect(isErrorResult(first) && first.error.details?.approval_request_id).toMatch(/^apreq_/);
    expect(errorCode(await h.pipeline.submit(req, h.agent))).toBe('IN_PROGRESS');
    await approveNext(h);
    await h.pipeline.idle();
    const replay = await h.pipeline.submit(req, h.agent);
    expect(isConfirmedDone(replay)).toBe(true);
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('a valid receipt runs the action without a new card; it cannot be used twice', async () => {
    const h = await harness();
    const req = cancelRequest();
    const receipt_id = await exactReceipt(h, req);
    const r = await h.pipeline.submit({ ...req, approval: { receipt_id } }, h.agent);
    expect(isConfirmedDone(r)).toBe(true);
    expect(h.panel.cards).toHaveLength(1); // only the one made for the receipt
    h.shop.orders.set('ORD-1024', { state: 'awaiting_payment', version: 17, note: '' });
    const again = await h.pipeline.submit({ ...req, idempotency_key: 'other_key', approval: { receipt_id } }, h.agent);
    expect(again).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'used' } } });
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('a receipt is refused for different input', async () => {
    const h = await harness();
    const req = cancelRequest();
    const receipt_id = await exactReceipt(h, req);
    const r = await h.pipeline.submit({ ...req, input: { reason: 'changed_mind' }, approval: { receipt_id } }, h.agent);
    expect(r).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'input_mismatch' } } });
    expect(h.shop.calls.execute).toHaveLength(0);
  });

  it('a receipt is refused once the state changed', async () => {
    const h = await harness();
    const req = cancelRequest();
    const receipt_id = await exactReceipt(h, req);
    h.shop.touch('ORD-1024');
    const r = await h.pipeline.submit({ ...req, approval: { receipt_id } }, h.agent);
    expect(r).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'state_changed' } }, current: { state_version: 'fp-100012' } });
    expect(h.shop.calls.execute).toHaveLength(0);
  });

  it('a receipt is refused after it expired', async () => {
    const h = await harness();
    const req = cancelRequest();
    const receipt_id = await exactReceipt(h, req);
    h.clock.advance(5 * 60_000);
    const r = await h.pipeline.submit({ ...req, approval: { receipt_id } }, h.agent);
    expect(r).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'expired' } } });
  });

  it('a window receipt ("approve for N minutes") covers the same contract action and input at a new state, until expiry; nothing else', async () => {
    const h = await harness();
    h.shop.tabUrl = undefined;
    const contractRoute = (id: string) => [{ kind: 'site_contract' as const, url: `${ORIGIN}/agent/v1/resources/order/${id}` }];
    h.shop.routes = contractRoute('ORD-1024');
    const req = cancelRequest();
    const receipt_id = await exactReceipt(h, req, 10 * 60_000, 'site_contract');
    h.shop.touch('ORD-1024');
    const r1 = await h.pipeline.submit({ ...req, approval: { receipt_id } }, h.agent);
    expect(isConfirmedDone(r1)).toBe(true);
    h.shop.orders.set('ORD-1024', { state: 'awaiting_payment', version: 40, note: '' });
    const r2 = await h.pipeline.submit({ ...req, idempotency_key: 'second', approval: { receipt_id } }, h.agent);
    expect(isConfirmedDone(r2)).toBe(true);
    // Not other input: the window is bound to what the card showed.
    h.shop.orders.set('ORD-1024', { state: 'awaiting_payment', version: 41, note: '' });
    const otherInput = await h.pipeline.submit({ ...req, input: { reason: 'other' }, idempotency_key: 'other_input', approval: { receipt_id } }, h.agent);
    expect(otherInput).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'input_mismatch' } } });
    // Not another resource.
    h.shop.orders.set('ORD-2048', { state: 'awaiting_payment', version: 5, note: '' });
    h.shop.routes = contractRoute('ORD-2048');
    const other = await h.pipeline.submit({ ...req, resource: { type: 'order', id: 'ORD-2048' }, idempotency_key: 'other', approval: { receipt_id } }, h.agent);
    expect(other).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'resource_mismatch' } } });
    h.shop.routes = contractRoute('ORD-1024');
    h.clock.advance(10 * 60_000);
    const late = await h.pipeline.submit({ ...req, idempotency_key: 'third', approval: { receipt_id } }, h.agent);
    expect(late).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'expired' } } });
    expect(h.shop.calls.execute).toHaveLength(2);
  });
});

describe('Pipeline: idempotency', () => {
  it('same key + same input → the first result, and the executor ran once', async () => {
    const h = await harness();
    const req = { action: 'orders.view', resource: ORDER, idempotency_key: 'same' };
    const a = await h.pipeline.submit(req, h.agent);
    const b = await h.pipeline.submit(req, h.agent);
    expect(b).toEqual(a);
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('same key + different input → IDEMPOTENCY_CONFLICT', async () => {
    const h = await harness();
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'k', input: { a: 1 } }, h.agent);
    const r = await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'k', input: { a: 2 } }, h.agent);
    expect(errorCode(r)).toBe('IDEMPOTENCY_CONFLICT');
    const other = await h.pipeline.submit({ action: 'orders.track', resource: ORDER, idempotency_key: 'k', input: { a: 1 } }, h.agent);
    expect(errorCode(other)).toBe('IDEMPOTENCY_CONFLICT');
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('same key while the first is still running → IN_PROGRESS (retryable)', async () => {
    const h = await harness();
    const req = cancelRequest();
    const first = h.pipeline.submit(req, h.agent);
    const card = await h.panel.next();
    const second = await h.pipeline.submit(req, h.agent);
    expect(second).toMatchObject({ error: { code: 'IN_PROGRESS', retryable: true } });
    await approve(h, card);
    expect(isConfirmedDone(await first)).toBe(true);
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('replays across a restart, without executing again', async () => {
    const h = await harness();
    const req = { action: 'orders.view', resource: ORDER, idempotency_key: 'persist' };
    const a = await h.pipeline.submit(req, h.agent);
    const h2 = await restart(h);
    expect(await h2.pipeline.submit(req, h2.agent)).toEqual(a);
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('a refusal before dispatch frees the key for a retry', async () => {
    const h = await harness();
    h.shop.ship('ORD-1024');
    const req = cancelRequest();
    expect(errorCode(await h.pipeline.submit(req, h.agent))).toBe('PRECONDITION_FAILED');
    h.shop.orders.set('ORD-1024', { state: 'awaiting_payment', version: 30, note: '' });
    const retry = h.pipeline.submit(req, h.agent);
    await approveNext(h);
    expect(isConfirmedDone(await retry)).toBe(true);
  });
});

describe('Pipeline: approval expiry and internal failures', () => {
  it('an approval card that expires without a decision ends the action (APPROVAL_REQUIRED) and frees the key', async () => {
    const h = await harness({ pipeline: { approvalSettings: { request_ttl_ms: 30 } } });
    const req = cancelRequest();
    const r = await h.pipeline.submit(req, h.agent);
    expect(r).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', message: /expired/ } });
    expect(await journalStates(h, r.action_id!)).toEqual(['proposed', 'awaiting_approval', 'failed']);
    expect(h.panel.settledLog.map(([, s]) => s)).toEqual(['expired']);
    expect(h.shop.calls.execute).toHaveLength(0);
    // Same key again: a new card, not a replayed failure.
    void h.pipeline.submit(req, h.agent);
    await h.panel.next();
    expect(await h.panel.next()).toMatchObject({ idempotency_key: req.idempotency_key });
  });

  it('an unexpected error before dispatch ends the action as failed, retryable, key freed', async () => {
    const h = await harness();
    h.shop.tabUrl = undefined;
    const ports = h.shop.ports();
    const { openPipeline } = await import('../../../src/pipeline/create.ts');
    const broken = await openPipeline({ openDb: async () => h.db, ports: { ...ports, routes: async () => Promise.reject(new Error('routing table corrupt')) }, clock: h.clock.now });
    const req = { action: 'orders.view', resource: ORDER, idempotency_key: 'crash' };
    const r = await broken.submit(req, h.agent);
    expect(r).toMatchObject({ error: { code: 'EXECUTION_FAILED', retryable: true, message: /before dispatching: routing table corrupt/ } });
    expect(await journalStates(h, r.action_id!)).toEqual(['proposed', 'failed']);
    h.shop.tabUrl = orderUrl('ORD-1024');
    expect(isErrorResult(await h.pipeline.submit(req, h.agent))).toBe(false);
  });
});
