/**
 * The shop's contract as a client finds it: discovery on every page, a document the shared schema
 * accepts and that agrees with what the API then answers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AgentContract, CONTRACT_LINK_REL, SiteResourceState } from '../../../src/protocol/agent-contract.ts';
import { demoPost, grant, makeAgent, signedFetch, startShop, type RunningShop } from './shop-agent-helpers.ts';

let shop: RunningShop;

beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  await shop?.stop();
});
beforeEach(async () => {
  await demoPost(shop.url, '/__demo/reset');
});

describe('discovery', () => {
  it('every HTML page names the contract in a Link header and a <link> element', async () => {
    for (const path of ['/', '/orders/ORD-1024', '/orders/ORD-1023/tracking', '/account/agents']) {
      const res = await fetch(`${shop.url}${path}`, { headers: { accept: 'text/html' } });
      expect(res.headers.get('link'), path).toBe(`</agent/v1/contract>; rel="${CONTRACT_LINK_REL}"`);
      const page = await res.text();
      expect(page, path).toContain('<link rel="agent-contract" href="/agent/v1/contract">');
      expect(page, path).toContain('Signed in as Jordan Lee');
    }
    // error pages and API answers carry the header too
    expect((await fetch(`${shop.url}/orders/NOPE`, { headers: { accept: 'text/html' } })).headers.get('link')).toContain('rel="agent-contract"');
  });

  it('the contract document parses and describes the order states and actions', async () => {
    const res = await fetch(`${shop.url}/agent/v1/contract`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/agent-contract\+json/);
    const contract = AgentContract.parse(await res.json());
    expect(contract.site.origin).toBe(shop.url);
    expect(contract.resources[0]?.states.map((s) => s.name)).toEqual(['awaiting_payment', 'paid', 'cancellation_pending', 'shipped', 'delivered', 'cancelled']);
    expect(contract.resources[0]?.page_path_template).toBe('/orders/{id}');
    const cancel = contract.actions.find((a) => a.name === 'orders.cancel');
    expect(cancel).toMatchObject({ allowed_in_states: ['awaiting_payment', 'paid'], may_be_async: true, requires_approval: true });
    expect(contract.actions.find((a) => a.name === 'orders.pay')).toMatchObject({ payment: true });
    expect(contract.actions.find((a) => a.name === 'orders.track')).toMatchObject({ read_only: true, requires_approval: false });
  });

  it('the actions a read offers are the contract’s actions allowed in that state', async () => {
    const contract = AgentContract.parse(await (await fetch(`${shop.url}/agent/v1/contract`)).json());
    const agent = await makeAgent();
    const { token } = await grant(shop.url, agent);
    for (const id of ['ORD-1024', 'ORD-1023', 'ORD-1019', 'ORD-1011']) {
      const state = SiteResourceState.parse(await (await signedFetch(agent, `${shop.url}/agent/v1/resources/order/${id}`, { token })).json());
      const offered = state.available_actions.map((a) => (typeof a === 'string' ? a : a.action));
      expect(offered, id).toEqual(contract.actions.filter((a) => a.allowed_in_states.includes(state.state)).map((a) => a.name));
    }
  });

  it('/__demo/state lists the agent tokens and events; reset clears them', async () => {
    const agent = await makeAgent();
    const granted = await grant(shop.url, agent);
    const state = (await (await fetch(`${shop.url}/__demo/state`)).json()) as { agent: { tokens: unknown[]; events: unknown[] } };
    expect(state.agent.tokens).toEqual([expect.objectContaining({ token_id: granted.token_id, scopes: granted.scopes, revoked: false, expires_at: granted.expires_at })]);
    expect(state.agent.events).toEqual([expect.objectContaining({ type: 'token_issued', via: 'agent', token_id: granted.token_id })]);
    await demoPost(shop.url, '/__demo/reset');
    const after = (await (await fetch(`${shop.url}/__demo/state`)).json()) as { agent: { tokens: unknown[]; events: unknown[] } };
    expect(after.agent).toMatchObject({ tokens: [], events: [] });
    const res = await signedFetch(agent, `${shop.url}/agent/v1/resources/order/ORD-1024`, { token: granted.token });
    expect(res.status).toBe(401);
  });
});
