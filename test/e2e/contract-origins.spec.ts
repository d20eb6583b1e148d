import type { Page } from '@playwright/test';
import { freePorts, startDemoSites } from '../../sites/server.ts';
import { connectStdio, errorCodeOf, launchWithBridge, openSidePanel, pairClient, payloadOf, type BridgeBrowser, type McpClient, type ToolReply } from '../harness/bridge-harness.ts';
import { test, expect, tabIdOf } from '../harness/fixtures.ts';
import { approvalCard, connectInPanel } from '../harness/contract-helpers.ts';
import { shopOrderPage, shopState, type ShopState } from '../harness/pipeline-helpers.ts';

/**
 * Issue 27, defect 1: a resource is (origin, type, id). Two shops on two localhost origins, both
 * connected through their agent contracts, hold the same order ids. A paired MCP client that works
 * in a tab on one shop and asks for an action on ORD-1024 gets that shop's order, and the signed
 * execute reaches that shop's server only; a request naming no site from a tab on neither shop is
 * refused with both candidates, and nothing reaches either. Ground truth is what each shop's server
 * received (its request log and its orders), never Steward's report.
 */

let world: BridgeBrowser;
let second: Awaited<ReturnType<typeof startDemoSites>>;
let shopA: string;
let shopB: string;
let lab: string;
let panel: Page;
let client: McpClient;

/** What the person grants each shop: read and cancel any order, no payment. */
const CONSENT = { scopes: ['orders:read', 'orders:cancel'], resources: 'order:*' };

/** Connects Steward to one shop in the side panel, from a tab on one of its order pages; the tab and its panel close after. */
async function connectShop(shopUrl: string): Promise<void> {
  const page = await shopOrderPage(world.context, shopUrl);
  const shopPanel = await openSidePanel(world, await tabIdOf(world.serviceWorker, page));
  await shopPanel.bringToFront();
  await connectInPanel(shopPanel, CONSENT);
  await shopPanel.close();
  await page.close();
}

test.beforeAll(async ({ sites }) => {
  shopA = new URL(sites.urls.shop).origin;
  lab = new URL(sites.urls.lab).origin;
  // A second shop, the same seed (the same order ids), on another origin.
  second = await startDemoSites({ ports: freePorts() });
  shopB = new URL(second.urls.shop).origin;
  for (const shop of [shopA, shopB]) expect((await fetch(new URL('/__demo/reset', shop), { method: 'POST' })).ok).toBe(true);
  world = await launchWithBridge({ nativeWebMcp: true, allowSites: [shopA, shopB, lab] });
  await connectShop(shopA);
  await connectShop(shopB);
  panel = await openSidePanel(world);
  client = await connectStdio(world, 'v2', 'Two Shops Client');
  await pairClient(client, panel, { sites: [shopA, shopB, lab], scopes: '*:*' });
});

test.afterAll(async () => {
  await client?.close();
  await world?.close();
  await second?.stop();
});

/** The requests a shop's server received after the first `from` of its log: reads of an order's state, and executions. */
async function receivedSince(shop: string, from: number, orderId: string) {
  const log: ShopState['requests'] = (await shopState(shop)).requests.slice(from);
  return {
    reads: log.filter((r) => r.method === 'GET' && r.path === `/agent/v1/resources/order/${orderId}`).length,
    executes: log.filter((r) => r.method === 'POST' && r.path === '/agent/v1/actions/execute').length,
  };
}
const logLength = async (shop: string) => (await shopState(shop)).requests.length;
const statusOn = async (shop: string, id: string) => (await shopState(shop)).orders.find((o) => o.id === id)?.status;

/** The client opens `url` in its tab and observes it. */
async function observeOn(url: string): Promise<number> {
  const opened = await client.call('steward_open', { url });
  expect(opened.isError, opened.text).toBe(false);
  const tabId = (payloadOf(opened) as { tab: { tab_id: number } }).tab.tab_id;
  const seen = await client.call('steward_observe', { tab_id: tabId });
  expect(seen.isError, seen.text).toBe(false);
  expect(new URL((payloadOf(seen) as { summary: { url: string } }).summary.url).origin).toBe(new URL(url).origin);
  return tabId;
}

/** Asks for the cancellation, the person approves the card (which names `site`), and the same call is repeated until it ends. */
async function cancelWithApproval(request: Record<string, unknown>, site: string, orderId: string): Promise<Record<string, unknown>> {
  const asked = await client.call('steward_execute', request);
  expect(errorCodeOf(asked), asked.text).toBe('APPROVAL_REQUIRED');
  await panel.bringToFront();
  const card = await approvalCard(panel, 'orders.cancel', orderId);
  // The card says which site the action will meet.
  await expect(card).toContainText(site);
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(card).toHaveCount(0);
  let final: ToolReply = await client.call('steward_execute', request);
  await expect
    .poll(async () => {
      if (errorCodeOf(final) === 'IN_PROGRESS') final = await client.call('steward_execute', request);
      return errorCodeOf(final) ?? (payloadOf(final) as { execution?: { status: string } }).execution?.status;
    })
    .toBe('confirmed');
  return payloadOf(final);
}

test('working in a tab on one shop, ORD-1024 is that shop’s order: its state is read there and the signed execute reaches that shop’s server only', async () => {
  for (const [here, there] of [
    [shopA, shopB],
    [shopB, shopA],
  ] as const) {
    const [hereFrom, thereFrom] = [await logLength(here), await logLength(there)];
    // The client's tab shows the shop's order list, not the order: the order is found through the contract.
    const tabId = await observeOn(`${here}/`);
    const result = await cancelWithApproval(
      { tab_id: tabId, action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, input: { reason: 'ordered_by_mistake' }, idempotency_key: `origins-cancel-${new URL(here).port}` },
      here,
      'ORD-1024',
    );
    expect(result).toMatchObject({ resource: { origin: here, type: 'order', id: 'ORD-1024', state: 'cancelled' } });

    // What the servers received: this shop read and cancelled its order once; the other shop saw nothing of it.
    const hereGot = await receivedSince(here, hereFrom, 'ORD-1024');
    expect(hereGot.executes).toBe(1);
    expect(hereGot.reads).toBeGreaterThan(0);
    expect(await receivedSince(there, thereFrom, 'ORD-1024')).toEqual({ reads: 0, executes: 0 });
    expect(await statusOn(here, 'ORD-1024')).toBe('cancelled');
  }
  // Each shop cancelled its own ORD-1024 exactly once, through its agent API.
  for (const shop of [shopA, shopB]) expect((await shopState(shop)).counters['ORD-1024']?.cancelled).toBe(1);
});

test('naming no site from a tab on neither shop is refused with both candidates and reaches neither; naming one reaches that one only', async () => {
  const [fromA, fromB] = [await logLength(shopA), await logLength(shopB)];
  const tabId = await observeOn(`${lab}/`);
  const request = { tab_id: tabId, action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1025' }, input: { reason: 'ordered_by_mistake' }, idempotency_key: 'origins-ambiguous-1025' };

  const refused = await client.call('steward_execute', request);
  expect(errorCodeOf(refused), refused.text).toBe('AMBIGUOUS_RESOURCE');
  const error = (payloadOf(refused) as { error: { retryable: boolean; details: { candidates: Array<{ origin: string; type: string; id: string }> } } }).error;
  expect(error.retryable).toBe(false);
  expect([...error.details.candidates].sort((a, b) => a.origin.localeCompare(b.origin))).toEqual([shopA, shopB].sort().map((origin) => ({ origin, type: 'order', id: 'ORD-1025' })));
  // No card for the person, and neither shop was asked anything about the order.
  await panel.bringToFront();
  expect(await panel.locator('article[data-action="orders.cancel"]').count()).toBe(0);
  expect(await receivedSince(shopA, fromA, 'ORD-1025')).toEqual({ reads: 0, executes: 0 });
  expect(await receivedSince(shopB, fromB, 'ORD-1025')).toEqual({ reads: 0, executes: 0 });

  // The same request naming shop B (a new key: it is another request) goes to B and nowhere else.
  const named = { ...request, resource: { origin: shopB, type: 'order', id: 'ORD-1025' }, idempotency_key: 'origins-named-1025' };
  const result = await cancelWithApproval(named, shopB, 'ORD-1025');
  expect(result).toMatchObject({ resource: { origin: shopB, id: 'ORD-1025', state: 'cancelled' } });
  expect((await receivedSince(shopB, fromB, 'ORD-1025')).executes).toBe(1);
  expect(await receivedSince(shopA, fromA, 'ORD-1025')).toEqual({ reads: 0, executes: 0 });
  expect(await statusOn(shopA, 'ORD-1025')).toBe('awaiting_payment');
  expect(await statusOn(shopB, 'ORD-1025')).toBe('cancelled');
});
