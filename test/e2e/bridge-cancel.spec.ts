import { test, expect } from '../harness/fixtures.ts';
import {
  approveInPanel,
  connectStdio,
  errorCodeOf,
  hostProcesses,
  launchWithBridge,
  openSidePanel,
  pairClient,
  payloadOf,
  type BridgeBrowser,
  type McpClient,
  type ToolReply,
} from '../harness/bridge-harness.ts';
import { cancelRequests, hold, killServiceWorker, liveWorker, ORDER, shopState } from '../harness/pipeline-helpers.ts';

/**
 * The person's MCP client cancels ORD-1024 on the shop through Steward. The person approves in
 * the side panel; Steward clicks the page's cancel button, and the service worker is killed (its
 * native host goes with it) before the shop has answered. It comes back while the page is still
 * waiting, so it cannot know the outcome; the client's retries with the same idempotency key get
 * the final result once the shop has answered. The shop's own records show exactly one
 * cancellation, however often the client retries.
 */

const CLIENT = 'Shop Helper';
const KEY = 'bridge-cancel-ord-1024';

test.describe.serial('cancelling ORD-1024 through the bridge', () => {
  let world: BridgeBrowser;
  let client: McpClient;

  test.beforeAll(async ({ sites }) => {
    for (const url of Object.values(sites.urls)) await fetch(new URL('/__demo/reset', url), { method: 'POST' });
    world = await launchWithBridge({ nativeWebMcp: true, allowSites: [sites.urls.shop] });
    client = await connectStdio(world, 'v2', CLIENT);
  });

  test.afterAll(async () => {
    await client?.close();
    await world?.close();
  });

  test('approved in the side panel, survives the worker being killed, and cancels exactly once', async ({ sites }) => {
    let panel = await openSidePanel(world);
    await pairClient(client, panel, { sites: [new URL(sites.urls.shop).origin], scopes: '*:*' });

    const opened = await client.call('steward_open', { url: `${sites.urls.shop}/orders/${ORDER.id}` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = (payloadOf(opened) as { tab: { tab_id: number } }).tab.tab_id;
    let summary: { resource: { type: string; id: string } | null; state: string | null; state_version: number | null } | undefined;
    await expect
      .poll(async () => {
        summary = (payloadOf(await client.call('steward_observe', { tab_id: tabId })) as { summary?: typeof summary }).summary;
        return summary?.state;
      })
      .toBe('awaiting_payment');
    // The resource is (origin, type, id): the shop's own ORD-1024.
    expect(summary!.resource).toEqual({ ...ORDER, origin: new URL(sites.urls.shop).origin });

    const cancel = {
      tab_id: tabId,
      action: 'orders.cancel',
      resource: ORDER,
      preconditions: { expected_state: 'awaiting_payment', state_version: summary!.state_version },
      input: { reason: 'ordered_by_mistake' },
      idempotency_key: KEY,
      rationale: 'The person ordered this by mistake.',
    };
    const asked = await client.call('steward_execute', cancel);
    expect(errorCodeOf(asked), asked.text).toBe('APPROVAL_REQUIRED');
    expect((await shopState(sites.urls.shop)).counters[ORDER.id]?.cancelled ?? 0).toBe(0);

    // The cancel form's POST is held by the network: the click has happened, the outcome is not known yet.
    const shopTab = world.context.pages().find((p) => p.url().endsWith(`/orders/${ORDER.id}`))!;
    const held = await hold(shopTab, 'POST', `/orders/${ORDER.id}/cancel`);
    await approveInPanel(panel, 'orders.cancel');
    await held.seen;

    // The worker dies (as MV3 workers do); Chromium ends its native host with it.
    const hostsBefore = hostProcesses(world.home);
    expect(hostsBefore).toHaveLength(1);
    const killedAt = Date.now();
    await killServiceWorker(panel, world.serviceWorker);
    await expect.poll(() => hostProcesses(world.home).filter((pid) => hostsBefore.includes(pid)), { message: 'the native host outlived the worker’s port' }).toEqual([]);

    // The client retries while Steward is gone; reopening the side panel wakes the worker, which starts the host again.
    const retry = client.call('steward_execute', cancel);
    await panel.close();
    panel = await openSidePanel(world);
    await liveWorker(world.context, world.extensionId, killedAt);
    const first = await retry;
    const outcome = (reply: ToolReply) => errorCodeOf(reply) ?? (payloadOf(reply) as { execution?: { status: string } }).execution?.status;
    // The shop has not answered: still running, or not known — never done, never failed.
    expect(['IN_PROGRESS', 'unknown'], first.text).toContain(outcome(first));

    // The shop answers; the client asks again (same key) until it is told the outcome.
    await held.release();
    await expect(shopTab.locator('#order-status')).toHaveText('Cancelled');
    let final: ToolReply = first;
    await expect
      .poll(async () => {
        if (outcome(final) === 'IN_PROGRESS' || outcome(final) === 'unknown') final = await client.call('steward_execute', cancel);
        return outcome(final);
      })
      .toBe('confirmed');
    const result = payloadOf(final) as { action_id: string; resource: { state: string } };
    expect(result.resource.state).toBe('cancelled');

    let shop = await shopState(sites.urls.shop);
    expect(shop.counters[ORDER.id]!.cancelled).toBe(1);
    expect(shop.orders.find((o) => o.id === ORDER.id)!.status).toBe('cancelled');
    expect(cancelRequests(shop, ORDER.id)).toHaveLength(1);

    // Once more with the same key: the same result, and still one cancellation on the shop.
    const again = await client.call('steward_execute', cancel);
    expect(again.isError, again.text).toBe(false);
    expect(payloadOf(again)).toMatchObject({ action_id: result.action_id, execution: { status: 'confirmed' } });
    shop = await shopState(sites.urls.shop);
    expect(shop.counters[ORDER.id]!.cancelled).toBe(1);
    expect(cancelRequests(shop, ORDER.id)).toHaveLength(1);
  });
});
