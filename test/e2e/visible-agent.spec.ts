import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { connectStdio, errorCodeOf, launchWithBridge, openSidePanel, pairClient, payloadOf, type BridgeBrowser, type McpClient, type ToolReply } from '../harness/bridge-harness.ts';
import { inContentScript } from '../harness/content-world.ts';
import { showView } from '../harness/panel-helpers.ts';

/**
 * Issue 30.4, a visible agent. A paired MCP client ("Shop Helper") asks to click the shop's
 * "Cancel order" button; while the click waits for the person, the tab's toolbar badge says so
 * and the page shows Steward's indicator (a closed shadow root the page cannot read) naming the
 * client, with Stop and a box over the button. The page is hostile: it removes the indicator (it
 * comes back), clicks Stop with its own scripts and builds a look-alike (nothing stops). The
 * person's own click on Stop denies the click as the side panel's Deny would; the badge and the
 * indicator go. The agent's observation of the page never contains the indicator.
 */

const CLIENT = 'Shop Helper';
const ORDER = 'ORD-1024';

interface Indicator {
  text: string;
  /** The Stop button's centre in the viewport. */
  stop: { x: number; y: number };
  /** The outline box, in the viewport. */
  outline: { left: number; top: number; width: number; height: number; shown: boolean };
}

/**
 * Steward's indicator as the isolated world sees it (chrome.dom.openOrClosedShadowRoot reads a
 * closed root there; the page's own scripts cannot): the host element whose closed root holds
 * Steward's card. Null when there is none.
 */
const readIndicator = (page: Page) =>
  inContentScript(
    page,
    `(() => {
      for (const el of document.documentElement.children) {
        if (el.shadowRoot) continue;
        const root = chrome.dom.openOrClosedShadowRoot(el);
        const card = root && root.querySelector('.card');
        if (!card) continue;
        const stop = card.querySelector('button').getBoundingClientRect();
        const box = root.querySelector('.outline');
        const o = box.getBoundingClientRect();
        return { text: card.textContent, stop: { x: stop.left + stop.width / 2, y: stop.top + stop.height / 2 }, outline: { left: o.left, top: o.top, width: o.width, height: o.height, shown: getComputedStyle(box).display !== 'none' } };
      }
      return null;
    })()`,
  ) as Promise<Indicator | null>;

/** The toolbar badge of one tab, as Chrome holds it. */
const badgeOf = (world: BridgeBrowser, tabId: number) => world.serviceWorker.evaluate((id) => chrome.action.getBadgeText({ tabId: id }), tabId);

/** What the accessibility tree (what a screen reader announces) holds of the page. */
async function accessibleTexts(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: Array<{ name?: { value?: string } }> };
    return nodes.map((n) => n.name?.value ?? '').join('\n');
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

test.describe.serial('a visible agent: badge, indicator, Stop', () => {
  let world: BridgeBrowser;
  let client: McpClient;

  test.beforeAll(async ({ sites }) => {
    for (const url of Object.values(sites.urls)) await fetch(new URL('/__demo/reset', url), { method: 'POST' });
    world = await launchWithBridge({ nativeWebMcp: false, allowSites: [sites.urls.shop] });
    client = await connectStdio(world, 'v2', CLIENT);
  });

  test.afterAll(async () => {
    await client?.close().catch(() => undefined);
    await world?.close();
  });

  test('while the client’s click waits, the tab is badged and the page shows who acts; only the person’s own Stop stops it', async ({ sites }) => {
    const panel = await openSidePanel(world);
    await pairClient(client, panel, { sites: [new URL(sites.urls.shop).origin], scopes: '*:*' });

    const opened = await client.call('steward_open', { url: `${sites.urls.shop}/orders/${ORDER}` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = (payloadOf(opened) as { tab: { tab_id: number } }).tab.tab_id;
    const shop = world.context.pages().find((p) => p.url().endsWith(`/orders/${ORDER}`))!;
    await shop.bringToFront();

    const before = await client.call('steward_observe', { tab_id: tabId });
    const ref = /(\S+) button~? "Cancel order"/.exec(before.text)?.[1];
    expect(ref, before.text.slice(0, 2000)).toBeTruthy();
    const summary = (payloadOf(before) as { summary: { resource: { type: string; id: string }; state_version: number } }).summary;
    expect(await badgeOf(world, tabId)).toBe('');
    expect(await readIndicator(shop)).toBeNull();

    const click = { tab_id: tabId, action: 'dom.click', resource: summary.resource, input: { ref }, idempotency_key: 'visible-agent-cancel' };
    expect(errorCodeOf(await client.call('steward_execute', click))).toBe('APPROVAL_REQUIRED');

    // The badge of that tab, and the indicator on its page, naming the client.
    await expect.poll(() => badgeOf(world, tabId)).toBe('?');
    expect(await world.serviceWorker.evaluate((id) => chrome.action.getTitle({ tabId: id }), tabId)).toContain(`${CLIENT} waits for your approval`);
    await expect.poll(async () => (await readIndicator(shop))?.text).toContain(`${CLIENT} waits for your approval`);
    // A person (and a screen reader) sees it: it is in the page's accessibility tree.
    expect(await accessibleTexts(shop)).toContain(`${CLIENT} waits for your approval in Steward’s side panel`);
    // The outline lies over the button the click is for (drawn in Steward's root, not on the page's element).
    const button = (await shop.locator('#cancel-button').boundingBox())!;
    await expect.poll(async () => (await readIndicator(shop))?.outline.shown).toBe(true);
    const { outline } = (await readIndicator(shop))!;
    expect(outline.left).toBeLessThanOrEqual(button.x);
    expect(outline.top).toBeLessThanOrEqual(button.y);
    expect(outline.left + outline.width).toBeGreaterThanOrEqual(button.x + button.width);
    expect(outline.top + outline.height).toBeGreaterThanOrEqual(button.y + button.height);
    expect(await shop.locator('#cancel-button').getAttribute('style')).toBeNull();

    // The page's own scripts see a host with no shadow root to read.
    expect(await shop.evaluate(() => [...document.documentElement.children].filter((c) => c !== document.head && c !== document.body).map((c) => c.shadowRoot))).toEqual([null]);

    // The agent's view of the page: no trace of the indicator, and the same state_version.
    const during = await client.call('steward_observe', { tab_id: tabId });
    expect(during.text).not.toContain('waits for your approval');
    expect(during.text).not.toContain(`Stop ${CLIENT}`);
    expect((payloadOf(during) as { summary: { state_version: number } }).summary.state_version).toBe(summary.state_version);

    // A hostile page removes it: it comes back.
    await shop.evaluate(() => {
      for (const el of [...document.documentElement.children]) if (el !== document.head && el !== document.body) el.remove();
    });
    await expect.poll(async () => (await readIndicator(shop))?.text).toContain(CLIENT);

    // The page clicks Stop with its own scripts, at the host and at the button's very point: nothing stops.
    const { stop } = (await readIndicator(shop))!;
    await shop.evaluate(({ x, y }) => {
      const host = [...document.documentElement.children].find((c) => c !== document.head && c !== document.body) as HTMLElement;
      host.click();
      host.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, clientX: x, clientY: y }));
      (document.elementFromPoint(x, y) as HTMLElement | null)?.click();
      // A look-alike of Steward's indicator, the page's own.
      const fake = document.createElement('div');
      fake.innerHTML = '<button id="fake-stop" style="position:fixed;left:10px;top:10px;z-index:2147483647">Stop Shop Helper</button>';
      document.body.append(fake);
    }, stop);
    // Even an untrusted click right on Steward's button (only Steward's own world can reach it) is not the person's.
    await inContentScript(
      shop,
      `(() => {
        for (const el of document.documentElement.children) chrome.dom.openOrClosedShadowRoot(el)?.querySelector('button')?.click();
      })()`,
    );
    // The person clicks the look-alike: it is the page's button, and it does nothing of Steward's.
    await shop.locator('#fake-stop').click();
    const still: ToolReply = await client.call('steward_execute', click);
    expect(errorCodeOf(still), still.text).toBe('IN_PROGRESS');
    expect(await badgeOf(world, tabId)).toBe('?');

    // The person's own click on Steward's Stop: the click is denied, as the side panel's Deny would.
    const now = (await readIndicator(shop))!;
    await shop.mouse.click(now.stop.x, now.stop.y);
    let ended: ToolReply = still;
    await expect
      .poll(async () => {
        ended = await client.call('steward_execute', click);
        return errorCodeOf(ended);
      })
      .toBe('APPROVAL_DENIED');
    expect(ended.text).toContain('stopped by the person');
    await expect(shop.locator('#order-status')).not.toHaveText('Cancelled');

    // Gone from the toolbar and from the page once nothing acts there.
    await expect.poll(() => badgeOf(world, tabId)).toBe('');
    await expect.poll(() => readIndicator(shop)).toBeNull();

    // The activity log keeps it under the client's name (its one session so far), as the person's Stop, not a Deny.
    await showView(panel, 'Activity');
    const task = panel.getByRole('list', { name: 'Activity log' }).getByRole('listitem', { name: new RegExp(`^${CLIENT}, session started `) });
    await expect(task.getByRole('button', { name: /^dom\.click/ })).toContainText('Stopped by you');
  });
});
