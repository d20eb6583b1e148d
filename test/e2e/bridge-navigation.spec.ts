import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { connectStdio, launchWithBridge, openSidePanel, pairClient, payloadOf, type BridgeBrowser, type McpClient, type ToolReply } from './bridge-harness.ts';
import { startOtherOrigin, type OtherOrigin } from './nav-other-origin.ts';

/**
 * An MCP client trying to take the browser off the sites it may use with `steward_open`: through
 * the lab's open redirect (`/leave?to=` answers 302 to any URL), with a URL carrying credentials,
 * and with non-web schemes. Ground truth is the other origin's own request log: it must receive
 * nothing, not even the first request of the redirected navigation.
 */

const codeOf = (reply: ToolReply): string | undefined => (reply.structured?.error as { code?: string } | undefined)?.code;

test.describe.serial('steward_open stays on the allowed sites', () => {
  let world: BridgeBrowser;
  let panel: Page;
  let client: McpClient;
  let other: OtherOrigin;

  test.beforeAll(async ({ sites }) => {
    other = await startOtherOrigin();
    world = await launchWithBridge({ nativeWebMcp: false, allowSites: [sites.urls.lab, sites.urls.shop] });
    panel = await openSidePanel(world);
    client = await connectStdio(world, 'v2', 'Curious Agent');
    await pairClient(client, panel, { sites: [new URL(sites.urls.lab).origin] });
  });
  test.afterAll(async () => {
    await client?.close().catch(() => undefined);
    await world?.close();
    await other?.stop();
  });

  test('an open redirect on an allowed site: SITE_NOT_ALLOWED, and the other origin receives no request; the hop is named where Chrome shows it to Steward', async ({ sites }) => {
    const target = `${other.url}/collect?order=ORD-1024&email=jordan%40example.com`;
    for (const new_tab of [true, false]) {
      const reply = await client.call('steward_open', { url: `${sites.urls.lab}/leave?to=${encodeURIComponent(target)}`, new_tab });
      expect(reply.isError, reply.text).toBe(true);
      expect(codeOf(reply), reply.text).toBe('SITE_NOT_ALLOWED');
      // Steward has no access to the other origin, so Chrome hides the blocked address from it too.
      expect(reply.text).toContain('a site Steward has no access to');
    }
    // The lab did answer the hop (the redirect happened), and still nothing reached the other origin.
    expect(other.received).toEqual([]);
    // The shop is one of the person's sites (Steward sees its addresses) but not this client's: named.
    const shop = new URL(sites.urls.shop).origin;
    const toShop = await client.call('steward_open', { url: `${sites.urls.lab}/leave?to=${encodeURIComponent(`${shop}/orders/ORD-1024`)}`, new_tab: true });
    expect(codeOf(toShop), toShop.text).toBe('SITE_NOT_ALLOWED');
    expect(toShop.text).toContain(shop);
  });

  test('the allowed site itself still opens, with its own same-origin redirects', async ({ sites }) => {
    const reply = await client.call('steward_open', { url: `${sites.urls.lab}/leave?to=${encodeURIComponent(`${sites.urls.lab}/partners`)}`, new_tab: true });
    expect(reply.isError, reply.text).toBe(false);
    expect((payloadOf(reply) as { tab: { url: string } }).tab.url).toBe(`${sites.urls.lab}/partners`);
  });

  test('a URL with a user name and password, or a non-web scheme, is refused before anything loads', async ({ sites }) => {
    const lab = new URL(sites.urls.lab);
    const tabsBefore = world.context.pages().length;
    for (const url of [`http://user:pw@${lab.host}/partners`, `http://${lab.host}@127.0.0.1:${new URL(other.url).port}/phish`]) {
      const reply = await client.call('steward_open', { url });
      expect(reply.isError, reply.text).toBe(true);
      expect(codeOf(reply), reply.text).toBe('INVALID_INPUT');
      expect(reply.text).toMatch(/user name or password/);
    }
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', `data:text/html,<a href="${other.url}">x</a>`]) {
      const reply = await client.call('steward_open', { url });
      expect(reply.isError, `${url}: ${reply.text}`).toBe(true);
    }
    expect(world.context.pages().length).toBe(tabsBefore);
    expect(other.received).toEqual([]);
  });
});
