import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ObservedState } from '../../../src/protocol/observed-state.ts';
import { createContractClient, type ContractClient } from '../../../src/contract/contract-client.ts';
import { observeFromContract, resourceForPage } from '../../../src/contract/contract-observation.ts';
import { contractUrlFor } from '../../../src/contract/discovery.ts';
import type { AgentKey, DiscoveredContract, SiteGrant } from '../../../src/contract/ports.ts';
import { describeRefusal } from '../../../src/contract/refusals.ts';
import type { ExecutionCall } from '../../../src/pipeline/ports.ts';
import { freePorts, startDemoSites, type RunningDemoSites } from '../../../sites/server.ts';
import { discoverContract, makeAgentKey } from './helpers.ts';
import { NodeHttpPort } from './node-http.ts';

/**
 * Steward's client against the reference shop's real listener, over real HTTP on 127.0.0.1:
 * the person visits the shop (its session), Steward discovers the contract from the page, gets a
 * grant bound to its key, reads and acts — every request signed and verified by the shop.
 */

let sites: RunningDemoSites;
let shop: string;

beforeAll(async () => {
  sites = await startDemoSites({ ports: freePorts() });
  shop = sites.urls.shop;
});
afterAll(() => sites.stop());

async function demo(path: string, body: unknown = {}): Promise<unknown> {
  const res = await fetch(`${shop}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
  return res.json();
}

interface Connected {
  http: NodeHttpPort;
  key: AgentKey;
  client: ContractClient;
  contract: DiscoveredContract;
  grant: SiteGrant;
}

/** The person opens the order page; Steward discovers the contract there and the person connects it. */
async function connect(pagePath = '/orders/ORD-1024'): Promise<Connected> {
  const http = new NodeHttpPort();
  const page = await http.visit(`${shop}${pagePath}`);
  expect(page.status).toBe(200);
  const linkHref = /<link rel="agent-contract" href="([^"]+)"/.exec(page.html)?.[1];
  expect(linkHref).toBeDefined();
  // The server's Link header names the same contract as the page's <link>.
  expect(contractUrlFor({ pageUrl: `${shop}${pagePath}`, linkHeader: page.link ?? '' })).toEqual(contractUrlFor({ pageUrl: `${shop}${pagePath}`, linkHref }));
  expect(contractUrlFor({ pageUrl: `${shop}${pagePath}`, linkHref })).toEqual({ ok: true, value: `${shop}/agent/v1/contract` });
  const found = await discoverContract(http, { pageUrl: `${shop}${pagePath}`, linkHref, ...(page.link ? { linkHeader: page.link } : {}) }, Date.now);
  if (!found.ok) throw new Error(`discovery failed: ${found.error.message}`);
  const { key } = await makeAgentKey();
  const client = createContractClient({ http, key });
  const granted = await client.requestGrant(found.value, {
    scopes: ['orders:read', 'orders:cancel', 'orders:track', 'orders:request_return'],
    resource_scope: ['order:*'],
    payment: false,
    expires_in_s: 3_600,
    agent_name: 'Steward',
  });
  if (!granted.ok) throw new Error(`grant failed: ${granted.error.message}`);
  return { http, key, client, contract: found.value, grant: granted.value };
}

async function read({ client, contract, grant }: Connected, id: string) {
  const state = await client.readState(contract, grant, { type: 'order', id });
  if (!state.ok) throw new Error(`read failed: ${state.error.message}`);
  return state.value;
}

let seq = 0;
function cancelCall(id: string, stateVersion: number): ExecutionCall {
  const action_id = `act_contract_${++seq}_${Date.now()}`;
  return {
    action_id,
    action: 'orders.cancel',
    resource: { type: 'order', id },
    input: { reason: 'ordered_by_mistake' },
    idempotency_key: action_id,
    via: 'site_contract',
    description: {
      action: 'orders.cancel',
      via: 'site_contract',
      read_only: false,
      consequential: true,
      payment: false,
      untrusted_content: false,
      requires_approval: true,
      input_schema: { type: 'object' },
    },
    agent_id: 'agent:copilot',
    token_id: 'tok_local',
    receipt_id: `approval_${seq}`,
    location: { kind: 'contract', url: `${shop}/agent/v1/resources/order/${id}` },
    ctx: { agent_id: 'agent:copilot' },
    observed: { url: `${shop}/orders/${id}`, state_version: stateVersion },
  };
}

async function cancellations(id: string): Promise<number> {
  const state = (await (await fetch(`${shop}/__demo/state`)).json()) as { counters?: Record<string, { cancelled?: number }> };
  return state.counters?.[id]?.cancelled ?? 0;
}

beforeEach(async () => {
  await demo('/__demo/reset');
  await demo('/__demo/agent/settings', { refund_delay_ms: null });
});

describe('the client against the reference shop', () => {
  it('discovers, is granted a token bound to its key, reads an order with an integer version, and cancels it: confirmed', async () => {
    const c = await connect();
    expect(c.contract.contract.site.origin).toBe(shop);
    expect(resourceForPage(c.contract, `${shop}/orders/ORD-1024`)).toEqual({ type: 'order', id: 'ORD-1024' });
    const before = await read(c, 'ORD-1024');
    expect(before.state).toBe('awaiting_payment');
    expect(Number.isInteger(before.state_version)).toBe(true);
    const observed = observeFromContract(c.contract, before, c.grant, `${shop}/agent/v1/resources/order/ORD-1024`, Date.now());
    expect(ObservedState.parse(observed)).toMatchObject({ source: 'site_contract', state_version: before.state_version, confidence: 1 });
    expect(observed.available_actions).toContain('orders.cancel');

    const report = await c.client.execute(c.contract, c.grant, cancelCall('ORD-1024', before.state_version));
    expect(report).toMatchObject({ outcome: 'confirmed', resource_state: { state: 'cancelled' }, effects: [expect.objectContaining({ type: 'order_cancelled' })] });
    if (report.outcome !== 'confirmed') throw new Error('not confirmed');
    expect(report.resource_state!.state_version).toBeGreaterThan(before.state_version);
    expect(await cancellations('ORD-1024')).toBe(1);
    expect((await read(c, 'ORD-1024')).state).toBe('cancelled');
  });

  it('a paid order: accepted, still accepted when polled, confirmed only after the refund settles', async () => {
    await demo('/__demo/orders/ORD-1025', { status: 'paid' });
    const c = await connect('/orders/ORD-1025');
    const before = await read(c, 'ORD-1025');
    expect(before.state).toBe('paid');
    const report = await c.client.execute(c.contract, c.grant, cancelCall('ORD-1025', before.state_version));
    expect(report).toMatchObject({ outcome: 'accepted', resource_state: { state: 'cancellation_pending' } });
    if (report.outcome !== 'accepted') throw new Error('not accepted');
    expect(report.status_url!.startsWith(`${shop}/`)).toBe(true);
    expect(await c.client.status(c.contract, c.grant, report.status_url!, { type: 'order', id: 'ORD-1025' })).toMatchObject({ outcome: 'accepted' });
    await demo('/__demo/agent/settle');
    expect(await c.client.status(c.contract, c.grant, report.status_url!, { type: 'order', id: 'ORD-1025' })).toMatchObject({ outcome: 'confirmed', resource_state: { state: 'cancelled' } });
    expect(await cancellations('ORD-1025')).toBe(1);
  });

  it('a shipped order: PRECONDITION_FAILED with track / return offered, nothing happened', async () => {
    const c = await connect('/orders/ORD-1023');
    const state = await read(c, 'ORD-1023');
    expect(state.state).toBe('shipped');
    expect(observeFromContract(c.contract, state, c.grant, `${c.contract.origin}/orders/${state.resource.id}`, Date.now()).unavailable_actions).toContainEqual({
      action: 'orders.cancel',
      allowed_in_states: ['awaiting_payment', 'paid'],
    });
    const report = await c.client.execute(c.contract, c.grant, cancelCall('ORD-1023', state.state_version));
    expect(report).toMatchObject({ outcome: 'failed', side_effect_possible: false, site_error: { error: { code: 'PRECONDITION_FAILED' }, current: { state: 'shipped' } } });
    if (report.outcome !== 'failed') throw new Error('not failed');
    const offered = (report.site_error!.available_actions ?? []).map((a) => (typeof a === 'string' ? a : a.action));
    expect(offered).toEqual(expect.arrayContaining(['orders.track', 'orders.request_return']));
    expect(await cancellations('ORD-1023')).toBe(0);
  });

  it('a stale state_version: PRECONDITION_FAILED with the current version', async () => {
    const c = await connect();
    const state = await read(c, 'ORD-1024');
    const report = await c.client.execute(c.contract, c.grant, cancelCall('ORD-1024', state.state_version - 1));
    expect(report).toMatchObject({ outcome: 'failed', side_effect_possible: false, site_error: { error: { code: 'PRECONDITION_FAILED' }, current: { state_version: state.state_version } } });
    expect(await cancellations('ORD-1024')).toBe(0);
  });

  it('the same action sent again runs once: a later retry is answered from the first result, another input is a conflict', async () => {
    const c = await connect();
    const state = await read(c, 'ORD-1024');
    const call = cancelCall('ORD-1024', state.state_version);
    const first = await c.client.execute(c.contract, c.grant, call);
    expect(first).toMatchObject({ outcome: 'confirmed', resource_state: { state: 'cancelled' } });
    // A retry (say after a worker restart) carries another approval time: the key binds action, resource and input only.
    const later = createContractClient({ http: c.http, key: c.key, now: () => Date.now() - 5_000 });
    expect(await later.execute(c.contract, c.grant, call)).toEqual(first);
    const otherInput = { ...call, input: { reason: 'found_cheaper' } };
    expect(await c.client.execute(c.contract, c.grant, otherInput)).toMatchObject({ outcome: 'failed', side_effect_possible: true, site_error: { error: { code: 'IDEMPOTENCY_CONFLICT' } } });
    expect(await cancellations('ORD-1024')).toBe(1);
  });

  it('revoked: failed with TOKEN_INVALID token_revoked, and the refusal ends the grant', async () => {
    const c = await connect();
    const state = await read(c, 'ORD-1024');
    expect(await c.client.revoke(c.contract, c.grant)).toEqual({ ok: true, value: undefined });
    const report = await c.client.execute(c.contract, c.grant, cancelCall('ORD-1024', state.state_version));
    expect(report).toMatchObject({ outcome: 'failed', side_effect_possible: false, site_error: { error: { code: 'TOKEN_INVALID', details: { reason: 'token_revoked' } } } });
    if (report.outcome !== 'failed') throw new Error('not failed');
    expect(describeRefusal(c.contract.contract.site.name, report.site_error!)).toMatchObject({ reason: 'token_revoked', ends_grant: true });
    const readAfter = await c.client.readState(c.contract, c.grant, { type: 'order', id: 'ORD-1024' });
    expect(readAfter).toMatchObject({ ok: false, error: { code: 'refused', status: 401 } });
    expect(await c.client.revoke(c.contract, c.grant)).toEqual({ ok: true, value: undefined });
    expect(await cancellations('ORD-1024')).toBe(0);
  });

  it('without the person signed in to the shop, no grant: login_required', async () => {
    const http = new NodeHttpPort();
    const found = await discoverContract(http, { pageUrl: `${shop}/orders/ORD-1024`, linkHref: '/agent/v1/contract' }, Date.now);
    if (!found.ok) throw new Error(found.error.message);
    const { key } = await makeAgentKey();
    const granted = await createContractClient({ http, key }).requestGrant(found.value, {
      scopes: ['orders:read'],
      resource_scope: ['order:*'],
      payment: false,
      expires_in_s: 60,
      agent_name: 'Steward',
    });
    if (granted.ok || granted.error.code !== 'refused') throw new Error('expected a refusal');
    expect(describeRefusal(found.value.contract.site.name, granted.error.site_error)).toMatchObject({ reason: 'login_required', person: expect.stringMatching(/^Sign in to /) });
  });
});
