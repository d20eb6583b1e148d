import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContractService, type ContractService } from '../../../../src/background/contract/contract-service.ts';
import { fetchHttpPort } from '../../../../src/background/contract/http.ts';
import { fuseWithDetail } from '../../../../src/observation/fusion/index.ts';
import { shopAdapter } from '../../../../src/observation/adapters/index.ts';
import type { ObservedState } from '../../../../src/protocol/observed-state.ts';
import type { PanelPush } from '../../../../src/protocol/panel-channel.ts';
import type { ExecutionCall } from '../../../../src/pipeline/ports.ts';
import { openContractVault, type ContractVault } from '../../../../src/storage/contract-vault.ts';
import { freshFactory } from '../../storage/helpers.ts';
import { shopOrderSnapshot } from '../../observation/fixtures/shop-order-snapshot.ts';
import { demoPost, demoState, personSession, startShop, type RunningShop } from '../../sites/shop-agent-helpers.ts';

/** The conflicts an agent reads in the observed state (wire values: pinned here, not imported). */
const CONTRACT_ACCESS_ENDED = 'contract_access_ended';
const CONTRACT_STATE_UNAVAILABLE = 'contract_state_unavailable';

/**
 * The worker's contract path against the reference shop's real listener on 127.0.0.1: the person
 * connects in the panel, the tab's observation takes the site's state, an action runs through the
 * Agent Action API, an accepted one is polled until the site confirms it, and a revoked grant ends.
 * The browser's cookie jar is the one thing simulated: the person's session goes with a request
 * that asks for credentials (the grant) and with nothing else.
 */

let shop: RunningShop;
let vault: ContractVault;
let pushes: PanelPush[];
let timers: Array<() => void>;
let requests: Array<{ url: string; credentials: RequestCredentials | undefined }>;
let allowed: Set<string>;
let contract: ContractService;
let rechecks: string[];

const pageOf = (id: string) => `${shop.url}/orders/${id}`;

beforeEach(async () => {
  shop = await startShop();
  const session = await personSession(shop.url);
  vault = await openContractVault({ factory: freshFactory() });
  pushes = [];
  timers = [];
  requests = [];
  rechecks = [];
  allowed = new Set([shop.url]);
  const http = fetchHttpPort({
    fetch: (input, init) => {
      requests.push({ url: String(input), credentials: init?.credentials });
      const headers = new Headers(init?.headers);
      if (init?.credentials === 'include') headers.set('cookie', session);
      return fetch(input, { ...init, headers });
    },
  });
  contract = createContractService({
    allowed: async (origin) => allowed.has(origin),
    tabPage: async (tabId) => (tabId === 1 ? { url: pageOf('ORD-1024') } : tabId === 2 ? { url: pageOf('ORD-1025'), contractHref: `${shop.url}/agent/v1/contract` } : undefined),
    recheck: async (actionId) => {
      rechecks.push(actionId);
      return { finished: false };
    },
    push: (m) => pushes.push(m),
    vault: async () => vault,
    http,
    setTimer: (fn) => timers.push(fn),
  });
});

afterEach(async () => {
  await shop.stop();
});

/** The shop's order page as Steward's own fusion reads it (the legacy path's observation). */
function legacyObservation(id: string, status: 'awaiting_payment' | 'paid' = 'awaiting_payment'): ObservedState {
  const snapshot = { ...shopOrderSnapshot({ origin: shop.url, id, status }), documentToken: 'doc-A' };
  return fuseWithDetail({ snapshot, tools: [], network: [], adapters: [shopAdapter()] }).state;
}

async function connect(scopes = ['orders:read', 'orders:cancel']) {
  expect(await contract.contracts.siteForTab(1)).not.toBeNull();
  return contract.contracts.connect({ origin: shop.url, scopes, resource_scope: ['order:*'], payment: false, expires_in_s: 3600 });
}

function callFor(observed: ObservedState, action: string, input: Record<string, unknown>): ExecutionCall {
  const description = observed.actions!.find((a) => a.action === action && a.via === 'site_contract')!;
  const actionId = `act_${crypto.randomUUID().slice(0, 8)}`;
  return {
    action_id: actionId,
    action,
    // The runner pins the resource to the site it was found on (origin, type, id).
    resource: { ...observed.resource, origin: new URL(observed.url).origin },
    input,
    idempotency_key: actionId,
    via: 'site_contract',
    description,
    agent_id: 'agent:test',
    token_id: 'tok_local',
    receipt_id: 'rcpt_1',
    location: { kind: 'tab' },
    ctx: { agent_id: 'agent:test' },
    observed: { url: observed.url, state_version: observed.state_version },
    allowed_origins: [shop.url],
  };
}

async function merged(id: string, status: 'awaiting_payment' | 'paid' = 'awaiting_payment'): Promise<ObservedState> {
  const tab = legacyObservation(id, status);
  const reading = await contract.siteState(pageOf(id), tab);
  expect(reading).toBeDefined();
  return reading!.merge(tab);
}

describe("the worker's contract path against the reference shop", () => {
  it('finds the contract a tab offers (from the Link header, or the page link), shows no grant, and fetches nothing for a site not allowed', async () => {
    const view = await contract.contracts.siteForTab(1);
    expect(view).toMatchObject({ origin: shop.url, contract_url: `${shop.url}/agent/v1/contract`, resource_types: ['order'], connection: { status: 'none' } });
    expect(view!.offered_scopes.map((s) => s.scope)).toContain('orders:cancel');
    // The page URL was read for its Link header without the person's cookies; then the contract.
    expect(requests.map((r) => [new URL(r.url).pathname, r.credentials])).toEqual([
      ['/orders/ORD-1024', 'omit'],
      ['/agent/v1/contract', 'omit'],
    ]);
    // Cached: asking again (another tab of the site, naming the same contract) costs nothing.
    expect((await contract.contracts.siteForTab(2))?.origin).toBe(shop.url);
    expect(requests).toHaveLength(2);

    allowed.clear();
    requests = [];
    expect(await contract.contracts.siteForTab(1)).toBeNull();
    expect(requests).toEqual([]);
  });

  it("connects with the person's consent: the grant is bound to Steward's key, the token stays in the worker", async () => {
    const reply = await connect();
    expect(reply).toMatchObject({ ok: true, site: { connection: { status: 'connected', scopes: ['orders:read', 'orders:cancel'], resource_scope: ['order:*'], granted_by: expect.any(String) } } });
    const record = await vault.grants.get(shop.url);
    const key = await vault.agentKey.read(shop.url);
    expect(record?.grant.key_thumbprint).toBe(key?.thumbprint);
    // The panel's views never carry the token.
    const views = JSON.stringify([reply, await contract.contracts.sites(), await contract.contracts.siteForTab(1)]);
    expect(views).not.toContain(record!.grant.token);
    // Only the grant request carried the person's cookies.
    expect(requests.filter((r) => r.credentials === 'include').map((r) => new URL(r.url).pathname)).toEqual(['/agent/v1/tokens']);
    expect(pushes).toContainEqual({ type: 'panel/contracts-changed' });
    expect((await demoState(shop.url)).agent.tokens).toHaveLength(1);
  });

  it('a tab without a grant is observed exactly as before, and nothing is asked of the site', async () => {
    const tab = legacyObservation('ORD-1024');
    requests = [];
    expect(await contract.siteState(pageOf('ORD-1024'), tab)).toBeUndefined();
    expect(requests).toEqual([]);
    expect(await contract.routes({ type: 'order', id: 'ORD-1024' })).toEqual([]);
  });

  it("with a grant, the tab's observation takes the site's state: site_contract, integer version, top confidence, the contract's actions first", async () => {
    await connect();
    const state = await merged('ORD-1024');
    expect(state).toMatchObject({ resource: { type: 'order', id: 'ORD-1024' }, state: 'awaiting_payment', source: 'site_contract', confidence: 1 });
    expect(typeof state.state_version).toBe('number');
    expect(state.evidence).toContain('site_contract');
    expect(state.actions![0]).toMatchObject({ action: 'orders.cancel', via: 'site_contract' });
    // The page's own controls are still there, after the contract's.
    expect(state.actions!.some((a) => a.via === 'legacy_inference')).toBe(true);

    // Routes and the contract endpoint observe it too, without any tab.
    const routes = await contract.routes({ type: 'order', id: 'ORD-1024' });
    expect(routes).toEqual([{ kind: 'site_contract', url: `${shop.url}/agent/v1/resources/order/ORD-1024` }]);
    const fromContract = await contract.observe(routes[0]!.url, { type: 'order', id: 'ORD-1024' });
    expect(fromContract).toMatchObject({ source: 'site_contract', state: 'awaiting_payment', state_version: state.state_version });
    expect(await contract.observe(`${shop.url}/agent/v1/resources/order/ORD-1025`, { type: 'order', id: 'ORD-1024' })).toBeNull();
  });

  it('cancels an order awaiting payment through the API: confirmed by the site, one cancellation', async () => {
    await connect();
    const state = await merged('ORD-1024');
    const report = await contract.executor.execute(callFor(state, 'orders.cancel', { reason: 'ordered_by_mistake' }));
    expect(report).toMatchObject({ outcome: 'confirmed', resource_state: { state: 'cancelled' } });
    expect((await demoState(shop.url)).counters['ORD-1024']).toMatchObject({ cancelled: 1 });
    expect((await merged('ORD-1024')).state).toBe('cancelled');
    expect(timers).toEqual([]);
  });

  it("a paid order's cancellation is accepted, followed by the poller, and confirmed only once the site settles the refund", async () => {
    await demoPost(shop.url, '/__demo/orders/ORD-1025', { status: 'paid' });
    await demoPost(shop.url, '/__demo/agent/settings', { refund_delay_ms: null });
    await connect();
    const state = await merged('ORD-1025', 'paid');
    const call = callFor(state, 'orders.cancel', { reason: 'ordered_by_mistake' });
    const report = await contract.executor.execute(call);
    expect(report).toMatchObject({ outcome: 'accepted', status_url: expect.stringMatching(new RegExp(`^${shop.url}/agent/v1/actions/`)) });
    if (report.outcome !== 'accepted') return;

    // The poller asks the pipeline to re-check it each tick until it settles.
    expect(timers).toHaveLength(1);
    timers.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(rechecks).toEqual([call.action_id]);
    expect(timers).toHaveLength(1);

    const statusCall = { action_id: call.action_id, resource: call.resource, status_url: report.status_url!, agent_id: 'agent:test', ctx: call.ctx };
    expect(await contract.executor.status!(statusCall)).toMatchObject({ outcome: 'accepted' });
    await demoPost(shop.url, '/__demo/agent/settle');
    expect(await contract.executor.status!(statusCall)).toMatchObject({ outcome: 'confirmed', resource_state: { state: 'cancelled' } });
  });

  it('a cancellation still pending when the person disconnects and reconnects is settled through the new grant (same key for the site)', async () => {
    await demoPost(shop.url, '/__demo/orders/ORD-1025', { status: 'paid' });
    await demoPost(shop.url, '/__demo/agent/settings', { refund_delay_ms: null });
    await connect();
    const call = callFor(await merged('ORD-1025', 'paid'), 'orders.cancel', { reason: 'ordered_by_mistake' });
    const report = await contract.executor.execute(call);
    if (report.outcome !== 'accepted') throw new Error(`expected accepted, got ${report.outcome}`);
    const statusCall = { action_id: call.action_id, resource: call.resource, status_url: report.status_url!, agent_id: 'agent:test', ctx: call.ctx };

    // Disconnected: nothing can be asked, so the action stays pending (never settled by guesswork).
    await contract.contracts.disconnect(shop.url);
    requests = [];
    expect(await contract.executor.status!(statusCall)).toEqual({ outcome: 'accepted', status_url: statusCall.status_url });
    expect(requests).toEqual([]);

    await connect();
    await demoPost(shop.url, '/__demo/agent/settle');
    expect(await contract.executor.status!(statusCall)).toMatchObject({ outcome: 'confirmed', resource_state: { state: 'cancelled' } });
    expect((await demoState(shop.url)).counters['ORD-1025'].cancelled).toBe(1);
  });

  it('a grant the person revoked at the site ends: the refusal reaches the report, the panel shows it ended, and tabs observe as before', async () => {
    await connect();
    const state = await merged('ORD-1024');
    const { token_id } = (await vault.grants.get(shop.url))!.grant;
    const revoked = await fetch(`${shop.url}/agent/v1/tokens/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: await personSession(shop.url) },
      body: JSON.stringify({ token_id }),
    });
    expect(revoked.status).toBe(200);
    pushes = [];

    const report = await contract.executor.execute(callFor(state, 'orders.cancel', { reason: 'ordered_by_mistake' }));
    expect(report).toMatchObject({ outcome: 'failed', side_effect_possible: false, site_error: { error: { code: 'TOKEN_INVALID', details: { reason: 'token_revoked' } } } });
    expect(pushes).toEqual([{ type: 'panel/contracts-changed' }]);
    expect((await contract.contracts.siteForTab(1))?.connection).toMatchObject({ status: 'ended', reason: 'token_revoked', message: expect.stringContaining('connect again') });
    // Nothing more is sent with it: the tab is the page's own again, and says the site ended the access.
    requests = [];
    const tab = legacyObservation('ORD-1024');
    expect((await contract.siteState(pageOf('ORD-1024'), tab))!.merge(tab)).toEqual({ ...tab, conflicts: [...tab.conflicts, CONTRACT_ACCESS_ENDED] });
    expect(requests).toEqual([]);
    expect(await contract.executor.execute(callFor(state, 'orders.cancel', { reason: 'ordered_by_mistake' }))).toMatchObject({ outcome: 'failed', side_effect_possible: false });
    expect(requests).toEqual([]);
  });

  it('a read that fails leaves the page its own observation, with the conflict named', async () => {
    await connect();
    const tab = legacyObservation('ORD-1024');
    await shop.stop();
    const reading = await contract.siteState(pageOf('ORD-1024'), tab);
    const state = reading!.merge(tab);
    expect(state).toEqual({ ...tab, conflicts: [...tab.conflicts, CONTRACT_STATE_UNAVAILABLE] });
    shop = await startShop();
  });

  it('disconnecting revokes the token at the site and forgets it', async () => {
    await connect();
    expect(await contract.contracts.disconnect(shop.url)).toEqual({ ok: true });
    expect(await vault.grants.get(shop.url)).toBeUndefined();
    expect(await contract.contracts.sites()).toEqual([]);
    expect(JSON.stringify((await demoState(shop.url)).agent)).toMatch(/revoked/);
  });

  it('the site refusing the grant (no session) is said plainly', async () => {
    const bare = createContractService({
      allowed: async () => true,
      tabPage: async () => ({ url: pageOf('ORD-1024') }),
      recheck: async () => undefined,
      push: () => undefined,
      vault: async () => vault,
      http: fetchHttpPort(),
    });
    expect(await bare.contracts.siteForTab(1)).not.toBeNull();
    const reply = await bare.contracts.connect({ origin: shop.url, scopes: ['orders:read'], resource_scope: ['order:*'], payment: false, expires_in_s: 600 });
    expect(reply).toMatchObject({ ok: false, error: { code: 'login_required', message: expect.stringContaining('Sign in') } });
    expect(await vault.grants.get(shop.url)).toBeUndefined();
  });
});
