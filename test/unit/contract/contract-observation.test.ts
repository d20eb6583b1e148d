import { describe, expect, it } from 'vitest';
import type { AvailableAction } from '../../../src/protocol/action.ts';
import { ObservedState } from '../../../src/protocol/observed-state.ts';
import { mergeWithTab, observeFromContract, resourceForPage } from '../../../src/contract/contract-observation.ts';
import { grantCovers } from '../../../src/contract/grant-scope.ts';
import { ORIGIN, T0, discovered, makeAgentKey, shopContract, siteGrant, siteState } from './helpers.ts';
import type { DiscoveredContract, SiteGrant } from '../../../src/contract/ports.ts';
import type { SiteResourceState } from '../../../src/protocol/agent-contract.ts';

/** The actions an observation built from the contract offers now, and those its state does not allow. */
const contractActions = (c: DiscoveredContract, site: SiteResourceState, grant: SiteGrant) => observeFromContract(c, site, grant, `${ORIGIN}/orders/${site.resource.id}`, T0).actions ?? [];
const unavailableActions = (c: DiscoveredContract, site: SiteResourceState, grant: SiteGrant) =>
  observeFromContract(c, site, grant, `${ORIGIN}/orders/${site.resource.id}`, T0).unavailable_actions ?? [];

/** The conflicts an agent reads in the merged state (wire values: pinned here, not imported). */
const PAGE_RESOURCE_DIFFERS = 'page_resource_differs_from_contract';
const PAGE_STATE_DIFFERS = 'page_state_differs_from_contract';

const contract = discovered();
const { key } = await makeAgentKey();
const grant = siteGrant(key);
const payingGrant = siteGrant(key, { scopes: ['orders:*'], payment: true });
const READ_URL = `${ORIGIN}/agent/v1/resources/order/ORD-1024`;

describe('resourceForPage', () => {
  it("matches a page to a resource by the contract's page_path_template", () => {
    expect(resourceForPage(contract, `${ORIGIN}/orders/ORD-1024`)).toEqual({ type: 'order', id: 'ORD-1024' });
    expect(resourceForPage(contract, `${ORIGIN}/orders/ORD-1024/?tab=items#top`)).toEqual({ type: 'order', id: 'ORD-1024' });
    expect(resourceForPage(contract, `${ORIGIN}/orders/ORD%2D7`)).toEqual({ type: 'order', id: 'ORD-7' });
  });

  it('matches nothing else: other paths, other origins, ids that are not ids', () => {
    for (const url of [
      `${ORIGIN}/orders`,
      `${ORIGIN}/orders/`,
      `${ORIGIN}/orders/ORD-1024/track`,
      `${ORIGIN}/x/orders/ORD-1024`,
      `http://localhost:4101/orders/ORD-1024`,
      `${ORIGIN}/orders/%2A`,
      `${ORIGIN}/orders/%E0%A4%A`,
      'not a url',
    ]) {
      expect(resourceForPage(contract, url), url).toBeUndefined();
    }
  });

  it('treats the template literally apart from {id}', () => {
    const c = shopContract();
    c.resources[0]!.page_path_template = '/o.rders/{id}.html';
    expect(resourceForPage(discovered(c), `${ORIGIN}/o.rders/ORD-1.html`)).toEqual({ type: 'order', id: 'ORD-1' });
    expect(resourceForPage(discovered(c), `${ORIGIN}/oXrders/ORD-1.html`)).toBeUndefined();
    c.resources[0]!.page_path_template = '/orders/{type}';
    expect(resourceForPage(discovered(c), `${ORIGIN}/orders/ORD-1`)).toBeUndefined();
  });
});

describe('contract actions', () => {
  it('maps an action to the site scope it needs', () => {
    const c = shopContract();
    const scopes = ['orders:cancel', 'orders:pay', 'orders:track', 'orders:request_return'];
    const order = { type: 'order', id: 'ORD-1' };
    // Each action is covered by its own scope and by no other of the four.
    expect(c.actions.map((a) => scopes.filter((scope) => grantCovers(c, { ...payingGrant.grant, scopes: [scope] }, a, order)))).toEqual(scopes.map((scope) => [scope]));
  });

  it('lists what the contract allows now, the site lists, and the grant covers, described as the contract says', () => {
    const actions = contractActions(contract, siteState(), payingGrant);
    expect(actions.map((a) => a.action)).toEqual(['orders.cancel', 'orders.pay']);
    expect(actions[0]).toEqual({
      action: 'orders.cancel',
      via: 'site_contract',
      title: 'Cancel order',
      read_only: false,
      changes: ['order_cancelled'],
      consequential: true,
      payment: false,
      untrusted_content: false,
      requires_approval: true,
      input_schema: shopContract().actions[0]!.input_schema,
    } satisfies AvailableAction);
    expect(actions[1]).toMatchObject({ action: 'orders.pay', payment: true, requires_approval: true });
  });

  it('leaves out actions outside the grant: scope, payment, resource scope', () => {
    expect(contractActions(contract, siteState(), grant).map((a) => a.action)).toEqual(['orders.cancel']);
    expect(contractActions(contract, siteState(), siteGrant(key, { scopes: ['orders:read'] }))).toEqual([]);
    expect(contractActions(contract, siteState(), siteGrant(key, { resource_scope: ['order:ORD-9'] }))).toEqual([]);
    expect(contractActions(contract, siteState(), siteGrant(key, { resource_scope: ['order:ORD-1024'] })).map((a) => a.action)).toEqual(['orders.cancel']);
    const c = shopContract();
    expect(grantCovers(c, payingGrant.grant, c.actions[1]!, { type: 'order', id: 'ORD-1' })).toBe(true);
    expect(grantCovers(c, { ...payingGrant.grant, payment: false }, c.actions[1]!, { type: 'order', id: 'ORD-1' })).toBe(false);
  });

  it('leaves out what the site does not list now, even if the contract allows it in this state', () => {
    expect(contractActions(contract, siteState({ available_actions: [{ action: 'orders.pay', requires_approval: true }] }), payingGrant).map((a) => a.action)).toEqual(['orders.pay']);
  });

  it('names the actions of other states as unavailable, with the states they need', () => {
    const shipped = siteState({ state: 'shipped', available_actions: ['orders.track', 'orders.request_return'] });
    expect(contractActions(contract, shipped, grant).map((a) => a.action)).toEqual(['orders.track', 'orders.request_return']);
    expect(contractActions(contract, shipped, grant)[0]).not.toHaveProperty('changes');
    expect(unavailableActions(contract, shipped, grant)).toEqual([{ action: 'orders.cancel', allowed_in_states: ['awaiting_payment', 'paid'] }]);
    expect(unavailableActions(contract, shipped, payingGrant)).toEqual([
      { action: 'orders.cancel', allowed_in_states: ['awaiting_payment', 'paid'] },
      { action: 'orders.pay', allowed_in_states: ['awaiting_payment'] },
    ]);
  });
});

describe('observeFromContract', () => {
  it("is a valid site_contract ObservedState: the site's integer version, full confidence, facts from the site", () => {
    const observed = observeFromContract(contract, siteState(), grant, READ_URL, T0);
    expect(ObservedState.parse(observed)).toEqual(observed);
    expect(observed).toEqual({
      resource: { type: 'order', id: 'ORD-1024' },
      resource_identity: { certainty: 'identified', basis: "Larkspur's agent contract" },
      state: 'awaiting_payment',
      available_actions: ['orders.cancel'],
      actions: [expect.objectContaining({ action: 'orders.cancel', via: 'site_contract' })],
      unavailable_actions: [
        { action: 'orders.track', allowed_in_states: ['shipped', 'delivered'] },
        { action: 'orders.request_return', allowed_in_states: ['shipped', 'delivered'] },
      ],
      source: 'site_contract',
      evidence: ['site_contract'],
      confidence: 1,
      conflicts: [],
      state_version: 17,
      observed_at: '2026-08-03T11:40:00.000Z',
      url: READ_URL,
      title: 'Order ORD-1024',
      facts: [
        { name: 'total_cents', value: 4200, sources: ['site_contract'], confidence: 1 },
        { name: 'currency', value: 'USD', sources: ['site_contract'], confidence: 1 },
      ],
    });
  });
});

describe('mergeWithTab', () => {
  const contractState = observeFromContract(contract, siteState(), grant, READ_URL, T0);
  const adapterCancel: AvailableAction = {
    action: 'orders.cancel',
    via: 'adapter',
    read_only: false,
    consequential: true,
    payment: false,
    untrusted_content: false,
    requires_approval: true,
    input_schema: { type: 'object' },
  };
  const click: AvailableAction = { ...adapterCancel, action: 'dom.click', via: 'legacy_inference', target_ref: 'e12' };
  const adapterHelp: AvailableAction = { ...adapterCancel, action: 'orders.contact_support' };
  const tab = ObservedState.parse({
    resource: { type: 'order', id: 'ORD-1024' },
    resource_identity: { certainty: 'identified', basis: 'page title' },
    state: 'awaiting_payment',
    available_actions: ['orders.cancel', 'orders.contact_support', 'dom.click'],
    actions: [adapterCancel, adapterHelp, click],
    source: 'adapter',
    evidence: ['adapter', 'dom', 'url'],
    confidence: 0.85,
    conflicts: ['canvas_total_not_observed'],
    state_version: 'fp-6c1d0e9a',
    observed_at: '2026-08-03T11:40:01.000Z',
    url: `${ORIGIN}/orders/ORD-1024`,
    title: 'Order ORD-1024 · Larkspur',
    facts: [{ name: 'total_cents', value: 4200, sources: ['dom'], confidence: 0.8 }],
    elements: [{ ref: 'e12', role: 'button', name: 'Cancel order', states: [], visibility: 'visible' }],
  });

  it("puts the site's word first and keeps the page's detail", () => {
    const merged = mergeWithTab(tab, contractState);
    expect(ObservedState.parse(merged)).toEqual(merged);
    expect(merged).toMatchObject({
      resource: { type: 'order', id: 'ORD-1024' },
      resource_identity: { certainty: 'identified', basis: "Larkspur's agent contract" },
      state: 'awaiting_payment',
      state_version: 17,
      source: 'site_contract',
      confidence: 1,
      evidence: ['site_contract', 'adapter', 'dom', 'url'],
      conflicts: ['canvas_total_not_observed'],
      available_actions: ['orders.cancel', 'orders.contact_support', 'dom.click'],
      unavailable_actions: contractState.unavailable_actions,
      url: tab.url,
      observed_at: tab.observed_at,
      title: tab.title,
      elements: tab.elements,
    });
    expect(merged.facts!.map((f) => f.sources)).toEqual([['site_contract'], ['site_contract'], ['dom']]);
  });

  it("drops the adapter's version of an action the contract defines, keeps the page's other actions after the contract's", () => {
    const merged = mergeWithTab(tab, contractState);
    expect(merged.actions!.map((a) => `${a.via}:${a.action}`)).toEqual(['site_contract:orders.cancel', 'adapter:orders.contact_support', 'legacy_inference:dom.click']);
  });

  it('drops an adapter action the contract offers only in another state, name and all', () => {
    const shippedContract = observeFromContract(contract, siteState({ state: 'shipped', state_version: 21, available_actions: ['orders.track'] }), grant, READ_URL, T0);
    const merged = mergeWithTab(tab, shippedContract);
    expect(merged.available_actions).toEqual(['orders.track', 'orders.contact_support', 'dom.click']);
    expect(merged.actions!.some((a) => a.via === 'adapter' && a.action === 'orders.cancel')).toBe(false);
    expect(merged.unavailable_actions).toContainEqual({ action: 'orders.cancel', allowed_in_states: ['awaiting_payment', 'paid'] });
  });

  it("names a page whose state is not the site's, or that shows another resource", () => {
    const stale = mergeWithTab(ObservedState.parse({ ...tab, state: 'paid' }), contractState);
    expect(stale.state).toBe('awaiting_payment');
    expect(stale.conflicts).toEqual(['canvas_total_not_observed', PAGE_STATE_DIFFERS]);
    const other = mergeWithTab(ObservedState.parse({ ...tab, resource: { type: 'order', id: 'ORD-9' } }), contractState);
    expect(other.resource).toEqual({ type: 'order', id: 'ORD-1024' });
    expect(other.conflicts).toContain(PAGE_RESOURCE_DIFFERS);
    expect(mergeWithTab(tab, contractState).conflicts).not.toContain(PAGE_STATE_DIFFERS);
  });

  it('merges a bare legacy observation too', () => {
    const bare = ObservedState.parse({
      resource: { type: 'page', id: 'orders-ORD-1024' },
      state: 'unknown',
      available_actions: [],
      source: 'legacy_inference',
      evidence: ['dom'],
      confidence: 0.4,
      conflicts: [],
      state_version: 'fp-000001',
      observed_at: '2026-08-03T11:40:01.000Z',
      url: `${ORIGIN}/orders/ORD-1024`,
    });
    const merged = mergeWithTab(bare, contractState);
    expect(ObservedState.parse(merged)).toEqual(merged);
    expect(merged).toMatchObject({ source: 'site_contract', evidence: ['site_contract', 'dom'], available_actions: ['orders.cancel'], title: 'Order ORD-1024' });
    expect(merged.conflicts).toEqual([PAGE_STATE_DIFFERS, PAGE_RESOURCE_DIFFERS]);
  });
});
