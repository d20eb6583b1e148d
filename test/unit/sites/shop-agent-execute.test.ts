/**
 * The shop's Agent Action API over real HTTP: execute's happy path, scope and approval, the
 * idempotency rules, preconditions with what is possible instead, and an accepted cancellation
 * that is confirmed only when its refund settles.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SiteActionResult, SiteErrorBody, SiteResourceState } from '../../../src/protocol/agent-contract.ts';
import { demoPost, demoState, execute, executeBody, grant, makeAgent, signedFetch, startShop, type Agent, type Loose, type RunningShop } from './shop-agent-helpers.ts';

let shop: RunningShop;
let agent: Agent;
/** While set, a claimed execute waits here (to overlap two requests under one key). */
let hold: Promise<void> | null = null;

beforeAll(async () => {
  shop = await startShop({ executionGate: () => hold ?? Promise.resolve() });
  agent = await makeAgent();
});
afterAll(async () => {
  await shop?.stop();
});
beforeEach(async () => {
  hold = null;
  await demoPost(shop.url, '/__demo/reset');
  await demoPost(shop.url, '/__demo/agent/settings', { refund_delay_ms: null });
});

async function read(token: string, id: string): Promise<{ status: number; etag: string | null; body: Loose }> {
  const res = await signedFetch(agent, `${shop.url}/agent/v1/resources/order/${id}`, { token });
  return { status: res.status, etag: res.headers.get('etag'), body: await res.json() };
}

async function refusal(res: Response): Promise<SiteErrorBody> {
  return SiteErrorBody.parse(await res.json());
}

const cancel = (id: string, extra: { preconditions?: { state_version?: number; expected_state?: string } } = {}) => ({
  action: 'orders.cancel',
  id,
  input: { reason: 'ordered_by_mistake' },
  ...extra,
});

describe('execute: the happy path', () => {
  it('grant → read → cancel confirmed: state_version grows and the order is cancelled exactly once', async () => {
    const { token } = await grant(shop.url, agent);
    const before = await read(token, 'ORD-1024');
    expect(before.status).toBe(200);
    const state = SiteResourceState.parse(before.body);
    expect(state).toMatchObject({ resource: { type: 'order', id: 'ORD-1024' }, state: 'awaiting_payment' });
    expect(before.etag).toBe(`"${state.state_version}"`);

    const res = await execute(shop.url, agent, token, cancel('ORD-1024', { preconditions: { state_version: state.state_version } }));
    expect(res.status).toBe(200);
    const result = SiteActionResult.parse(await res.json());
    expect(result.execution.status).toBe('confirmed');
    expect(result.resource).toMatchObject({ state: 'cancelled' });
    expect(result.resource.state_version).toBeGreaterThan(state.state_version);
    expect('effects' in result && result.effects).toEqual([{ type: 'order_cancelled', reversible: false, resource: { type: 'order', id: 'ORD-1024' } }]);

    const after = await read(token, 'ORD-1024');
    expect(after.body).toMatchObject({ state: 'cancelled', state_version: result.resource.state_version });
    const s = await demoState(shop.url);
    expect(s.counters['ORD-1024'].cancelled).toBe(1);
    expect(s.events.filter((e: Loose) => e.type === 'order_cancelled')).toEqual([expect.objectContaining({ order_id: 'ORD-1024', via: 'agent' })]);
  });

  it('a change by the legacy form path moves the same state_version the agent reads', async () => {
    const { token } = await grant(shop.url, agent);
    const v1 = (await read(token, 'ORD-1024')).body.state_version as number;
    await fetch(`${shop.url}/orders/ORD-1024/items/FLT-100/quantity`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'quantity=3', redirect: 'manual' });
    expect((await read(token, 'ORD-1024')).body.state_version).toBe(v1 + 1);
    await demoPost(shop.url, '/__demo/orders/ORD-1024', { status: 'paid' });
    expect((await read(token, 'ORD-1024')).body.state_version).toBe(v1 + 2);
  });
});

describe('execute: scope, resource scope, payment and approval', () => {
  it('an action outside the token scopes → 403 SCOPE_DENIED', async () => {
    const { token } = await grant(shop.url, agent, { scopes: ['orders:read'] });
    const res = await execute(shop.url, agent, token, cancel('ORD-1024'));
    expect(res.status).toBe(403);
    expect((await refusal(res)).error.code).toBe('SCOPE_DENIED');
    expect((await demoState(shop.url)).counters['ORD-1024'].cancelled).toBe(0);
  });

  it('an order outside the resource scope → 403 SCOPE_DENIED, for reads too', async () => {
    const { token } = await grant(shop.url, agent, { resource_scope: ['order:ORD-1025'] });
    const res = await execute(shop.url, agent, token, cancel('ORD-1024'));
    expect(res.status).toBe(403);
    expect((await refusal(res)).error.code).toBe('SCOPE_DENIED');
    expect((await read(token, 'ORD-1024')).status).toBe(403);
    expect((await read(token, 'ORD-1025')).status).toBe(200);
  });

  it('paying with a token granted without payment → 403; with payment → 200 paid', async () => {
    const without = await grant(shop.url, agent, { scopes: ['orders:pay'] });
    const res = await execute(shop.url, agent, without.token, { action: 'orders.pay', id: 'ORD-1024' });
    expect(res.status).toBe(403);
    expect((await refusal(res)).error).toMatchObject({ code: 'SCOPE_DENIED', details: { payment: false } });
    const withPayment = await grant(shop.url, agent, { scopes: ['orders:pay'], payment: true });
    const ok = await execute(shop.url, agent, withPayment.token, { action: 'orders.pay', id: 'ORD-1024' });
    expect(ok.status).toBe(200);
    expect((await demoState(shop.url)).counters['ORD-1024'].paid).toBe(1);
  });

  it('a consequential action without a receipt, or with a receipt for another input → 403 APPROVAL_REQUIRED', async () => {
    const { token } = await grant(shop.url, agent);
    const none = await execute(shop.url, agent, token, { ...cancel('ORD-1024'), noApproval: true });
    expect(none.status).toBe(403);
    expect((await refusal(none)).error.code).toBe('APPROVAL_REQUIRED');
    const body = await executeBody(cancel('ORD-1024'));
    const swapped = { ...body, input: { reason: 'found_cheaper' } };
    const other = await signedFetch(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'k-swap', body: swapped });
    expect(other.status).toBe(403);
    expect((await refusal(other)).error.code).toBe('APPROVAL_REQUIRED');
    expect((await demoState(shop.url)).counters['ORD-1024'].cancelled).toBe(0);
  });

  it('unknown action → 404 TOOL_NOT_FOUND; a bad body → 400 INVALID_INPUT with issues', async () => {
    const { token } = await grant(shop.url, agent);
    const unknown = await execute(shop.url, agent, token, { action: 'orders.explode', id: 'ORD-1024' });
    expect(unknown.status).toBe(404);
    expect((await refusal(unknown)).error.code).toBe('TOOL_NOT_FOUND');
    const bad = await signedFetch(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'k-bad', body: { action: 'orders.cancel', resource: { type: 'order' } } });
    expect(bad.status).toBe(400);
    const err = await refusal(bad);
    expect(err.error.code).toBe('INVALID_INPUT');
    expect(err.error.issues?.some((i) => i.path === 'resource.id')).toBe(true);
    const badInput = await execute(shop.url, agent, token, { action: 'orders.cancel', id: 'ORD-1024', input: { reason: 'because' } });
    expect(badInput.status).toBe(400);
    expect((await refusal(badInput)).error.issues?.[0]?.path).toBe('input.reason');
  });
});

describe('execute: idempotency', () => {
  it('the same key with the same body answers the first response byte for byte, and cancels once', async () => {
    const { token } = await grant(shop.url, agent);
    // one body (a receipt carries its approval time, so a retry resends the very same body)
    const body = await executeBody(cancel('ORD-1025'));
    const a = await signedFetch(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'act-2', body });
    expect(a.status).toBe(200);
    const aText = await a.text();
    const b = await signedFetch(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'act-2', body });
    expect(b.status).toBe(200);
    expect(await b.text()).toBe(aText);
    const s = await demoState(shop.url);
    expect(s.counters['ORD-1025'].cancelled).toBe(1);
    expect(s.counters['ORD-1025'].cancel_refused).toBe(0);
  });

  it('the same key with another body → 422 IDEMPOTENCY_CONFLICT', async () => {
    const { token } = await grant(shop.url, agent);
    const body = await executeBody(cancel('ORD-1024'));
    expect((await signedFetch(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'act-x', body })).status).toBe(200);
    const other = await signedFetch(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'act-x', body: await executeBody(cancel('ORD-1025')) });
    expect(other.status).toBe(422);
    expect((await refusal(other)).error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await demoState(shop.url)).counters['ORD-1025'].cancelled).toBe(0);
  });

  it('the same key while the first request is still running → 409 IN_PROGRESS, then the first completes once', async () => {
    const { token } = await grant(shop.url, agent);
    let release = (): void => undefined;
    hold = new Promise<void>((resolve) => (release = resolve));
    const body = await executeBody(cancel('ORD-1024'));
    const first = signedFetch(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'act-c', body });
    // wait until the shop holds the first one under its key
    while ((await demoState(shop.url)).agent.running_idempotency_keys === 0) await new Promise((r) => setTimeout(r, 5));
    const second = await signedFetch(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'act-c', body });
    expect(second.status).toBe(409);
    const err = await refusal(second);
    expect(err.error).toMatchObject({ code: 'IN_PROGRESS', retryable: true });
    release();
    expect((await first).status).toBe(200);
    expect((await demoState(shop.url)).counters['ORD-1024'].cancelled).toBe(1);
  });
});

describe('execute: preconditions', () => {
  it('a stale state_version → 412 with expected, current and the actions available now', async () => {
    const { token } = await grant(shop.url, agent);
    const v = (await read(token, 'ORD-1024')).body.state_version as number;
    await demoPost(shop.url, '/__demo/orders/ORD-1024', { status: 'paid' });
    const res = await execute(shop.url, agent, token, cancel('ORD-1024'), { ifMatch: `"${v}"` });
    expect(res.status).toBe(412);
    const err = await refusal(res);
    expect(err.error.code).toBe('PRECONDITION_FAILED');
    expect(err.expected).toEqual({ state_version: v });
    expect(err.current).toEqual({ state: 'paid', state_version: v + 1 });
    expect(err.available_actions?.map((a) => (typeof a === 'string' ? a : a.action))).toContain('orders.cancel');
    expect((await demoState(shop.url)).counters['ORD-1024'].cancelled).toBe(0);
  });

  it('cancelling a shipped order → 412 offering orders.track and orders.request_return', async () => {
    const { token } = await grant(shop.url, agent);
    const res = await execute(shop.url, agent, token, cancel('ORD-1023'));
    expect(res.status).toBe(412);
    const err = await refusal(res);
    expect(err.current?.state).toBe('shipped');
    expect(err.available_actions?.map((a) => (typeof a === 'string' ? a : a.action)).sort()).toEqual(['orders.request_return', 'orders.track']);
  });

  it('after a 412 the same key may be used again once the state allows it (a refusal is not stored)', async () => {
    const { token } = await grant(shop.url, agent);
    const body = await executeBody(cancel('ORD-1024', { preconditions: { expected_state: 'paid' } }));
    expect((await signedFetch(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'act-p', body })).status).toBe(412);
    await demoPost(shop.url, '/__demo/orders/ORD-1024', { status: 'paid' });
    expect((await signedFetch(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'act-p', body })).status).toBe(202);
  });
});

describe('execute: an accepted cancellation', () => {
  it('a paid order: 202 accepted with a status URL, cancellation_pending; confirmed only after the refund settles', async () => {
    const { token } = await grant(shop.url, agent);
    await demoPost(shop.url, '/__demo/orders/ORD-1024', { status: 'paid' });
    const res = await execute(shop.url, agent, token, cancel('ORD-1024'));
    expect(res.status).toBe(202);
    const accepted = SiteActionResult.parse(await res.json());
    if (accepted.execution.status !== 'accepted') throw new Error('expected accepted');
    expect(res.headers.get('location')).toBe(accepted.execution.status_url);
    expect(accepted.resource.state).toBe('cancellation_pending');

    const statusUrl = accepted.execution.status_url;
    const poll = async () => SiteActionResult.parse(await (await signedFetch(agent, `${shop.url}${statusUrl}`, { token })).json());
    expect((await poll()).execution.status).toBe('accepted');
    expect((await read(token, 'ORD-1024')).body.state).toBe('cancellation_pending');
    expect((await demoState(shop.url)).counters['ORD-1024'].cancelled).toBe(0);
    const page = await (await fetch(`${shop.url}/orders/ORD-1024`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('Cancellation pending (refund in progress)');
    expect(page).not.toContain('id="cancel-button"');

    expect(await (await demoPost(shop.url, '/__demo/agent/settle')).json()).toMatchObject({ settled: 1 });
    const done = await poll();
    expect(done.execution.status).toBe('confirmed');
    expect(done.resource.state).toBe('cancelled');
    const s = await demoState(shop.url);
    expect(s.counters['ORD-1024'].cancelled).toBe(1);
    expect(s.orders.find((o: Loose) => o.id === 'ORD-1024').status).toBe('cancelled');
  });

  it("another agent key's token cannot read the action status (404); the same key's next token can (the person reconnected)", async () => {
    const { token } = await grant(shop.url, agent);
    await demoPost(shop.url, '/__demo/orders/ORD-1024', { status: 'paid' });
    const accepted = (await (await execute(shop.url, agent, token, cancel('ORD-1024'))).json()) as Loose;
    const stranger = await makeAgent();
    const theirs = await grant(shop.url, stranger);
    expect((await signedFetch(stranger, `${shop.url}${accepted.execution.status_url}`, { token: theirs.token })).status).toBe(404);

    const reconnected = await grant(shop.url, agent);
    const res = await signedFetch(agent, `${shop.url}${accepted.execution.status_url}`, { token: reconnected.token });
    expect(res.status).toBe(200);
    expect(SiteActionResult.parse(await res.json())).toMatchObject({ action_id: accepted.action_id, execution: { status: 'accepted' } });
  });

  it('an order changed behind the pending refund makes the action fail, and nothing is counted', async () => {
    const { token } = await grant(shop.url, agent);
    await demoPost(shop.url, '/__demo/orders/ORD-1024', { status: 'paid' });
    const accepted = (await (await execute(shop.url, agent, token, cancel('ORD-1024'))).json()) as Loose;
    await demoPost(shop.url, '/__demo/orders/ORD-1024', { status: 'shipped' });
    await demoPost(shop.url, '/__demo/agent/settle');
    const result = SiteActionResult.parse(await (await signedFetch(agent, `${shop.url}${accepted.execution.status_url}`, { token })).json());
    expect(result.execution.status).toBe('failed');
    expect((await demoState(shop.url)).counters['ORD-1024'].cancelled).toBe(0);
  });
});

describe('the other order actions', () => {
  it('orders.track on a shipped order: confirmed, nothing changes', async () => {
    const { token } = await grant(shop.url, agent, { scopes: ['orders:*'] });
    const before = (await read(token, 'ORD-1023')).body;
    expect(before.facts).toMatchObject({ carrier: 'Parcelway', tracking_number: 'PW4471209855' });
    const res = await execute(shop.url, agent, token, { action: 'orders.track', id: 'ORD-1023', noApproval: true });
    expect(res.status).toBe(200);
    const result = SiteActionResult.parse(await res.json());
    expect(result.resource).toMatchObject({ state: 'shipped', state_version: before.state_version });
  });

  it('orders.request_return on a shipped order, then it is no longer offered', async () => {
    const { token } = await grant(shop.url, agent, { scopes: ['orders:*'] });
    const res = await execute(shop.url, agent, token, { action: 'orders.request_return', id: 'ORD-1023' });
    expect(res.status).toBe(200);
    expect((await read(token, 'ORD-1023')).body.facts.return_requested).toBe(true);
    const again = await execute(shop.url, agent, token, { action: 'orders.request_return', id: 'ORD-1023' });
    expect(again.status).toBe(412);
  });

  it('orders.change_address changes the address the legacy page shows', async () => {
    const { token } = await grant(shop.url, agent, { scopes: ['orders:change_address', 'orders:read'] });
    const res = await execute(shop.url, agent, token, { action: 'orders.change_address', id: 'ORD-1025', input: { address: '5 New Road, Leeds LS1 1AA' } });
    expect(res.status).toBe(200);
    const page = await (await fetch(`${shop.url}/orders/ORD-1025`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('5 New Road, Leeds LS1 1AA');
    expect((await demoState(shop.url)).counters['ORD-1025'].address_changes).toBe(1);
  });

  it('an unknown order → 404 TOOL_NOT_FOUND', async () => {
    const { token } = await grant(shop.url, agent);
    const res = await execute(shop.url, agent, token, cancel('ORD-9999'));
    expect(res.status).toBe(404);
    expect((await refusal(res)).error.code).toBe('TOOL_NOT_FOUND');
    expect((await read(token, 'ORD-9999')).status).toBe(404);
  });
});

describe('a pending refunded cancellation and the legacy paths', () => {
  it('the legacy cancel form refuses an order whose cancellation is pending, so it is counted once', async () => {
    const { token } = await grant(shop.url, agent);
    await demoPost(shop.url, '/__demo/orders/ORD-1024', { status: 'paid' });
    expect((await execute(shop.url, agent, token, cancel('ORD-1024'))).status).toBe(202);
    const legacy = await demoPost(shop.url, '/api/orders/ORD-1024/cancel', { reason: 'other' });
    expect(legacy.status).toBe(409);
    await demoPost(shop.url, '/__demo/agent/settle');
    expect((await demoState(shop.url)).counters['ORD-1024'].cancelled).toBe(1);
  });

  it('with a refund delay set, the refund settles by itself', async () => {
    await demoPost(shop.url, '/__demo/agent/settings', { refund_delay_ms: 0 });
    const { token } = await grant(shop.url, agent);
    await demoPost(shop.url, '/__demo/orders/ORD-1024', { status: 'paid' });
    const accepted = (await (await execute(shop.url, agent, token, cancel('ORD-1024'))).json()) as Loose;
    let status = 'accepted';
    while (status === 'accepted') {
      await new Promise((r) => setTimeout(r, 10));
      status = ((await (await signedFetch(agent, `${shop.url}${accepted.execution.status_url}`, { token })).json()) as Loose).execution.status;
    }
    expect(status).toBe('confirmed');
    expect((await demoState(shop.url)).counters['ORD-1024'].cancelled).toBe(1);
  });
});
