import type { StewardBrowser } from '../harness/browser.ts';
import { test, expect } from '../harness/fixtures.ts';
import {
  actionState,
  agentApiRequests,
  approvalCard,
  auditOf,
  cancellationEvents,
  connectInPanel,
  contractSection,
  executeRequests,
  freshStart,
  launchForShop,
  contractShopState,
  onShopOrder,
  setOrderStatus,
  setRefundDelay,
  settleRefunds,
  siteForTab,
} from '../harness/contract-helpers.ts';
import { showView } from '../harness/panel-helpers.ts';
import { ORDER, cancelAsObserved, cancelRequests, data, mint, observe, submit } from '../harness/pipeline-helpers.ts';

/**
 * Issue 16: the same "cancel ORD-1024" on the same shop, once through the shop's own pages (no
 * connection: the adapter and the DOM, as before) and once through the shop's agent contract after
 * the person connected Steward in the side panel; and an action the site accepts now and confirms
 * later is reported confirmed only once the site says so. The shop's own records are the truth.
 */

let world: StewardBrowser;
let shop: string;

test.beforeAll(async ({ sites }) => {
  shop = sites.urls.shop;
  world = await launchForShop(shop);
});
test.afterAll(async () => world?.close());
test.beforeEach(async () => freshStart(world, shop));

const cancelOrdered = (before: { state_version: string | number }, key: string, expected_state = 'awaiting_payment') => ({
  ...cancelAsObserved(before, 'ordered_by_mistake', key),
  preconditions: { expected_state, state_version: before.state_version },
});

test('without a connection Steward cancels through the shop’s pages, as before: one cancellation, not by the contract', async () => {
  const { origin, page, panel, tabId } = await onShopOrder(world, shop);
  // The shop offers its contract, but nobody connected: Steward reads the page as it always did.
  const section = await contractSection(panel);
  await expect(section.getByTestId('contract-connected')).toHaveCount(0);
  expect((await siteForTab(panel, tabId))?.connection.status).toBe('none');
  const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [origin] });
  const before = await observe(panel, tabId);
  expect(before).toMatchObject({ resource: ORDER, state: 'awaiting_payment' });
  expect(before.source).not.toBe('site_contract');
  expect(before.state_version).toEqual(expect.stringMatching(/^fp-/));

  const key = 'contract-e2e-dom-1024';
  const submitted = submit(panel, { token, tabId, request: cancelOrdered(before, key) });
  const card = await approvalCard(panel, 'orders.cancel', 'ORD-1024');
  // The path it runs on is under Details.
  await card.getByText('Details', { exact: true }).click();
  await expect(card.getByTestId('action-path')).toBeVisible();
  await expect(card.getByTestId('action-path')).not.toContainText(/contract/i);
  await card.getByRole('button', { name: 'Approve', exact: true }).click();

  const result = (await data(submitted)).result;
  expect(result).toMatchObject({ execution: { status: 'confirmed', verified_by: 'postcondition' }, resource: { ...ORDER, state: 'cancelled' } });
  expect(result.source).not.toBe('site_contract');
  const dispatch = (await auditOf(panel, key)).find((e) => e.kind === 'dispatch');
  expect(dispatch?.details?.via).toBeDefined();
  expect(dispatch?.details?.via).not.toBe('site_contract');

  // The shop: exactly one cancellation, made through its pages; its agent API was never asked to act.
  const after = await contractShopState(shop);
  expect(after.counters['ORD-1024']?.cancelled).toBe(1);
  expect(cancelRequests(after, 'ORD-1024')).toHaveLength(1);
  expect(cancellationEvents(after, 'ORD-1024').map((e) => e.via)).toEqual([expect.not.stringMatching(/^agent$/)]);
  expect(executeRequests(after)).toHaveLength(0);
  expect(after.agent.tokens).toHaveLength(0);
  await expect(page.locator('#order-status')).toHaveText('Cancelled');
});

test('connected in the side panel, Steward reads the shop’s contract and cancels through it: one cancellation, confirmed by the site, a retry changes nothing', async () => {
  const { origin, page, panel, tabId } = await onShopOrder(world, shop);
  await connectInPanel(panel, { scopes: ['orders:read', 'orders:cancel'], resources: 'order:ORD-1024' });
  expect((await siteForTab(panel, tabId))?.connection).toMatchObject({ status: 'connected', scopes: expect.arrayContaining(['orders:cancel']) });
  expect((await contractShopState(shop)).agent.tokens).toHaveLength(1);

  // What the agent sees of the tab now is the site's own word: an integer version, full confidence.
  const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [origin] });
  const before = await observe(panel, tabId);
  expect(before).toMatchObject({ resource: ORDER, state: 'awaiting_payment', source: 'site_contract', confidence: 1 });
  expect(Number.isInteger(before.state_version)).toBe(true);
  expect((before as unknown as { evidence: string[] }).evidence).toContain('site_contract');
  expect(before.available_actions).toContain('orders.cancel');

  const key = 'contract-e2e-contract-1024';
  const request = cancelOrdered(before, key);
  const submitted = submit(panel, { token, tabId, request });
  const card = await approvalCard(panel, 'orders.cancel', 'ORD-1024');
  await card.getByText('Details', { exact: true }).click();
  await expect(card.getByTestId('action-path')).toContainText(/site contract/i);
  // Nothing reaches the shop before the person decides.
  expect(executeRequests(await contractShopState(shop))).toHaveLength(0);
  await card.getByRole('button', { name: 'Approve', exact: true }).click();

  const result = (await data(submitted)).result;
  expect(result).toMatchObject({
    execution: { status: 'confirmed', certainty: 'confirmed', verified_by: 'site_contract' },
    resource: { ...ORDER, state: 'cancelled' },
    source: 'site_contract',
  });
  const audit = await auditOf(panel, key);
  expect(audit.find((e) => e.kind === 'dispatch')?.details?.via).toBe('site_contract');
  expect(audit.map((e) => e.kind)).toContain('confirmation');

  // The shop: one execution through its agent API, one cancellation, recorded as the agent's.
  const after = await contractShopState(shop);
  expect(after.counters['ORD-1024']?.cancelled).toBe(1);
  expect(executeRequests(after)).toHaveLength(1);
  expect(cancelRequests(after, 'ORD-1024')).toHaveLength(0);
  expect(cancellationEvents(after, 'ORD-1024').map((e) => e.via)).toEqual(['agent']);
  await page.reload();
  await expect(page.locator('#order-status')).toHaveText('Cancelled');

  // The agent retries with the same key: the same action comes back, and the shop is not asked again.
  const replay = (await data(submit(panel, { token, tabId, request }))).result;
  expect(replay.action_id).toBe(result.action_id);
  expect(replay).toMatchObject({ execution: { status: 'confirmed', verified_by: 'site_contract' } });
  const again = await contractShopState(shop);
  expect(again.counters['ORD-1024']?.cancelled).toBe(1);
  expect(executeRequests(again)).toHaveLength(1);
});

test('a cancellation the shop accepts is reported confirmed only after the shop confirms it', async () => {
  // A paid order's refund settles only when the test says so.
  await setRefundDelay(shop, null);
  await setOrderStatus(shop, 'ORD-1024', 'paid');
  const { origin, panel, tabId } = await onShopOrder(world, shop);
  await connectInPanel(panel, { scopes: ['orders:read', 'orders:cancel'], resources: 'order:ORD-1024' });
  const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [origin] });
  const before = await observe(panel, tabId);
  expect(before).toMatchObject({ state: 'paid', source: 'site_contract' });

  const key = 'contract-e2e-accepted-1024';
  const request = cancelOrdered(before, key, 'paid');
  const submitted = submit(panel, { token, tabId, request });
  await (await approvalCard(panel, 'orders.cancel', 'ORD-1024')).getByRole('button', { name: 'Approve', exact: true }).click();
  const result = (await data(submitted)).result;
  expect(result).toMatchObject({ execution: { status: 'accepted', certainty: 'pending_confirmation' }, source: 'site_contract' });
  expect(await actionState(panel, key)).toBe('pending_confirmation');

  // Steward keeps asking the shop, and while the shop has not settled, the action stays pending.
  const statusPolls = async () => agentApiRequests(await contractShopState(shop)).filter((r) => r.method === 'GET' && r.path.startsWith('/agent/v1/actions/')).length;
  await expect.poll(statusPolls, { message: 'Steward never asked the shop how the accepted action stands', timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  expect(await actionState(panel, key)).toBe('pending_confirmation');
  // The Activity view, narrowed to this action, says it is not done, and on which path it went.
  await showView(panel, 'Activity');
  await panel.getByRole('searchbox', { name: 'Search' }).fill(key);
  const entry = panel.getByRole('listitem').filter({ hasText: 'orders.cancel on order:ORD-1024' });
  await expect(entry).toContainText(/not confirmed yet|unresolved|pending confirmation/);
  await expect(entry.getByTestId('action-path')).toContainText(/site contract/i);
  // The agent asking again with the same key hears the same: accepted, not done.
  const asked = async () => ((await data(submit(panel, { token, tabId, request }))).result as { execution?: { status: string } }).execution?.status;
  expect(await asked()).toBe('accepted');
  // Nor has the shop cancelled it: the refund is still pending there.
  const pending = await contractShopState(shop);
  expect(pending.orders.find((o) => o.id === 'ORD-1024')?.status).toBe('paid');
  expect(pending.counters['ORD-1024']?.cancelled).toBe(0);
  expect(pending.agent.pending_refunds).toHaveLength(1);

  // The shop settles the refund: Steward hears it and reports the action confirmed.
  await settleRefunds(shop);
  await expect.poll(() => actionState(panel, key), { message: 'Steward never reported the settled cancellation confirmed', timeout: 20_000 }).toBe('confirmed');
  await expect(entry).not.toContainText(/not confirmed yet|unresolved|pending confirmation/);
  await expect(entry).toContainText('confirmed');
  expect(await asked()).toBe('confirmed');
  const after = await contractShopState(shop);
  expect(after.orders.find((o) => o.id === 'ORD-1024')?.status).toBe('cancelled');
  expect(after.counters['ORD-1024']?.cancelled).toBe(1);
  expect(executeRequests(after)).toHaveLength(1);
});
