import type { StewardBrowser } from '../harness/browser.ts';
import { inContentScript } from '../harness/content-world.ts';
import { test, expect, tabIdOf } from '../harness/fixtures.ts';
import {
  agentHeadersOf,
  auditOf,
  connectInPanel,
  contractSection,
  executeRequests,
  freshStart,
  launchForShop,
  contractShopState,
  onShopOrder,
  openPanelFor,
  recordRequests,
  siteForTab,
} from '../harness/contract-helpers.ts';
import { ORDER, cancelRequests, control, data, mint, observe, submit } from '../harness/pipeline-helpers.ts';

/**
 * Issue 16's refusals on the contract path: an order the contract says cannot be cancelled any more
 * (Steward refuses before asking the person, nothing reaches the shop), a connection the person
 * revoked on the site itself, and an agent or page that tries to use the contract path without the
 * person's consent. The shop's own records say what reached it.
 */

let world: StewardBrowser;
let shop: string;

test.beforeAll(async ({ sites }) => {
  shop = sites.urls.shop;
  world = await launchForShop(shop);
});
test.afterAll(async () => world?.close());
test.beforeEach(async () => freshStart(world, shop));

const actionNames = (list: unknown) => (list as Array<string | { action: string }>).map((a) => (typeof a === 'string' ? a : a.action));
const noPendingCards = async (panel: Parameters<typeof control>[0]) => expect(await data(control(panel, { type: 'panel/approvals' }))).toEqual({ pending: [] });

test('a shipped order: PRECONDITION_FAILED with the shipped state and tracking / return offered, before the person is asked and without reaching the shop', async () => {
  const { origin, panel, tabId } = await onShopOrder(world, shop, 'ORD-1023');
  // Steward offers an agent only what the person granted: here reading, cancelling and returning.
  await connectInPanel(panel, { scopes: ['orders:read', 'orders:cancel', 'orders:request_return'], resources: 'order:*' });
  const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1023', origins: [origin] });
  const seen = await observe(panel, tabId);
  expect(seen).toMatchObject({ resource: { type: 'order', id: 'ORD-1023' }, state: 'shipped', source: 'site_contract' });
  expect(seen.available_actions).toContain('orders.track');
  expect(seen.available_actions).not.toContain('orders.cancel');

  const key = 'contract-e2e-shipped-1023';
  const result = (
    await data(submit(panel, { token, tabId, request: { action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1023' }, input: { reason: 'ordered_by_mistake' }, idempotency_key: key } }))
  ).result as Record<string, unknown> & { error?: { code: string } };
  expect(result).toMatchObject({ error: { code: 'PRECONDITION_FAILED', retryable: false }, current: { state: 'shipped' } });
  expect(Number.isInteger((result.current as { state_version: unknown }).state_version)).toBe(true);
  expect(actionNames(result.available_actions)).toEqual(expect.arrayContaining(['orders.track', 'orders.request_return']));
  expect(actionNames(result.available_actions)).not.toContain('orders.cancel');

  // The person was never asked, Steward dispatched nothing, the shop neither cancelled nor refused.
  await noPendingCards(panel);
  const kinds = (await auditOf(panel, key)).map((e) => e.kind);
  expect(kinds).not.toContain('approval_request');
  expect(kinds).not.toContain('dispatch');
  const state = await contractShopState(shop);
  expect(executeRequests(state)).toHaveLength(0);
  expect(cancelRequests(state, 'ORD-1023')).toHaveLength(0);
  expect(state.counters['ORD-1023']).toMatchObject({ cancelled: 0, cancel_refused: 0 });
  expect(state.orders.find((o) => o.id === 'ORD-1023')?.status).toBe('shipped');
});

test('revoked on the shop’s own account page: Steward stops using the API at once (the tab says the access ended; a cancel goes to the page path and waits for the person), the panel says why, and connecting again works', async () => {
  const { origin, panel, tabId } = await onShopOrder(world, shop);
  await connectInPanel(panel, { scopes: ['orders:read', 'orders:cancel'], resources: 'order:ORD-1024' });
  const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [origin] });
  expect((await observe(panel, tabId)).source).toBe('site_contract');

  // The person revokes Steward's access where they manage it on the site.
  const account = await world.context.newPage();
  await account.goto(`${shop}/account/agents`);
  await account.getByRole('button', { name: /^Revoke/ }).click();
  await expect(account.getByRole('button', { name: /^Revoke/ })).toHaveCount(0);
  await expect(account.locator('[data-field="status"]')).toHaveText(['Revoked']);
  expect((await contractShopState(shop)).agent.tokens).toMatchObject([{ revoked: true }]);

  // Steward stops using the site's API at once: the tab is read as a page again and says the site ended the access.
  const view = await observe(panel, tabId);
  expect(view.source).not.toBe('site_contract');
  expect(view.conflicts).toContain('contract_access_ended');
  const key = 'contract-e2e-revoked-1024';
  const request = { action: 'orders.cancel', resource: ORDER, input: { reason: 'ordered_by_mistake' }, idempotency_key: key };
  const result = (await data(submit(panel, { token, tabId, request, wait_for_approval: false }))).result as {
    error?: { code: string; message: string };
  };
  // The person's consent to the API is not stretched to the pages: the page path waits for the person.
  expect(result.error?.code).toBe('APPROVAL_REQUIRED');
  const card = (await data(control(panel, { type: 'panel/approvals' }))) as { pending: Array<{ via: string }> };
  expect(card.pending.map((c) => c.via)).not.toContain('site_contract');
  const state = await contractShopState(shop);
  expect(executeRequests(state)).toHaveLength(0);
  expect(cancelRequests(state, 'ORD-1024')).toHaveLength(0);
  expect(state.counters['ORD-1024']?.cancelled).toBe(0);

  const section = await contractSection(panel);
  await expect(section.getByTestId('contract-ended')).toBeVisible();
  await expect(section.getByTestId('contract-ended')).toContainText(/revoked/i);
  await expect(section.getByTestId('contract-connected')).toHaveCount(0);
  expect((await siteForTab(panel, tabId))?.connection.status).toBe('ended');

  // Connecting again gives Steward the contract back.
  await connectInPanel(panel, { scopes: ['orders:read', 'orders:cancel'], resources: 'order:ORD-1024' });
  await expect(section.getByTestId('contract-ended')).toHaveCount(0);
  expect((await observe(panel, tabId)).source).toBe('site_contract');
});

test('without the person’s consent neither an agent nor the page gets the contract path; Steward signs its own requests and never the page’s', async () => {
  const origin = new URL(shop).origin;
  const recorder = recordRequests(world, origin);
  try {
    const page = await world.context.newPage();
    await page.goto(`${shop}/orders/ORD-1024`);
    await expect(page.locator('#live-status')).not.toHaveText('Live status: checking…');
    const panel = await openPanelFor(world, page);
    const tabId = await tabIdOf(world.serviceWorker, page);
    // The most an agent can hold: every scope on every resource of the shop.
    const token = await mint(panel, { scope: ['*:*'], resource_scope: '*', origins: [origin] });

    // No grant: the agent's view of the tab is the page, not the contract.
    expect((await observe(panel, tabId)).source).not.toBe('site_contract');

    // An agent asking Steward to connect (whatever it calls it) is refused, and the shop issues nothing.
    for (const action of ['contract.connect', 'steward.connect', 'agent.token']) {
      const request = { action, resource: { type: 'site', id: 'shop' }, input: { origin, scopes: ['orders:*'] }, idempotency_key: `contract-e2e-${action}` };
      const r = (await data(submit(panel, { token, tabId, request }))).result as { error?: { code: string } };
      expect(r.error?.code, action).toBeDefined();
    }
    // A compromised content script cannot send the panel's connect either.
    const connect = { type: 'panel/contract-connect', origin, scopes: ['orders:read', 'orders:cancel'], resource_scope: ['*'], payment: true, expires_in_s: 3600 };
    const forged = await inContentScript(page, `chrome.runtime.sendMessage(${JSON.stringify(connect)}).then((r) => JSON.stringify(r), (e) => 'threw: ' + String(e))`);
    expect(forged).not.toContain('"ok":true');
    await noPendingCards(panel);
    const before = await contractShopState(shop);
    expect(before.agent.tokens).toHaveLength(0);
    expect(before.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/agent/v1/tokens'))).toHaveLength(0);
    expect((await siteForTab(panel, tabId))?.connection.status).toBe('none');
    expect((await observe(panel, tabId)).source).not.toBe('site_contract');

    // The person connects: Steward now reads the order from the shop's agent API.
    await connectInPanel(panel, { scopes: ['orders:read'], resources: 'order:ORD-1024' });
    expect((await observe(panel, tabId)).source).toBe('site_contract');
    await page.reload();
    await expect(page.locator('#live-status')).not.toHaveText('Live status: checking…');

    const sent = await recorder.sent();
    // Steward's own calls to the agent API (token grant, state reads) are signed, the reads carry the token…
    const calls = sent.filter((r) => r.byWorker && /^\/agent\/v1\/(tokens|resources|actions)/.test(r.path));
    expect(calls.map((r) => r.path)).toEqual(expect.arrayContaining(['/agent/v1/tokens', '/agent/v1/resources/order/ORD-1024']));
    for (const r of calls) expect(agentHeadersOf(r), `${r.method} ${r.path}`).toEqual(expect.arrayContaining(['signature', 'signature-input', 'signature-agent']));
    for (const r of calls.filter((c) => c.path.startsWith('/agent/v1/resources/'))) expect(r.headers.authorization, r.path).toMatch(/^Bearer /);
    // …while the page's own traffic, before and after connecting, carries no signature and no token.
    const pageTraffic = sent.filter((r) => !r.byWorker);
    expect(pageTraffic.filter((r) => r.path.startsWith('/api/orders/')).length).toBeGreaterThanOrEqual(2);
    for (const r of pageTraffic) expect(agentHeadersOf(r), `${r.method} ${r.path}`).toEqual([]);
  } finally {
    recorder.stop();
  }
});
