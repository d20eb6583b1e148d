import type { BrowserContext, Page, Worker } from '@playwright/test';
import { clickStewardButton, grantInChromeSettings, grantedOrigins, revokeInChromeSettings, tabIdOfAnyPage } from '../harness/browser.ts';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, observeViaPanel, showView } from '../harness/panel-helpers.ts';

/** Steward's main-world script wraps fetch at document_start; on a page it never entered, fetch is the browser's own. */
const fetchIsNative = (page: Page) => page.evaluate(() => window.fetch.toString().includes('[native code]'));
const observeInWorker = (worker: Worker, tabId: number) =>
  worker.evaluate((id) => (globalThis as unknown as { stewardObservation: { observeTab(id: number): Promise<unknown> } }).stewardObservation.observeTab(id), tabId);
const registeredMatches = (worker: Worker) => worker.evaluate(async () => [...new Set((await chrome.scripting.getRegisteredContentScripts()).flatMap((s) => s.matches ?? []))].sort());

const openPinnedPanel = async (page: Page, extensionId: string, tabId: number) => {
  const panel = await page.context().newPage();
  await panel.goto(`chrome-extension://${extensionId}/src/sidepanel/index.html?tabId=${tabId}&view=tab`);
  return panel;
};

/**
 * Steward reads only the sites the person allows, and Chrome gives it host access to each one
 * alone (optional_host_permissions): "Allow <site>" asks Chrome (chrome.permissions.request in
 * the person's click), Steward's page scripts are registered for the granted origins only, and
 * every message to a tab is gated by site. Here no demo site is allowed at the start.
 *
 * Chrome's prompt cannot be answered in headless Chromium, so where a test needs Chrome to say
 * yes, the person has first granted the site in chrome://extensions (Site access → On specific
 * sites → Add: `grantInChromeSettings`, the same developerPrivate call that page makes). Chrome
 * then answers Steward's real request without a prompt, as it does for any site the person granted.
 */
test.describe('sites Steward may observe', () => {
  test.use({ demoSitesAllowed: false });

  test('an unlisted site is not read; after the toolbar click the panel offers "Allow", which asks Chrome and starts observing the open page; "Remove" gives the access back', async ({
    steward,
    sites,
  }) => {
    const shop = new URL(sites.urls.shop).origin;
    const page = await steward.context.newPage();
    const url = `${sites.urls.shop}/orders/${SHOP_ORDER}`;
    await page.goto(url);
    // A mark in the page: it survives only if the page is not reloaded.
    await page.evaluate(() => ((window as unknown as { keptMark: number }).keptMark = 42));
    const tabId = await tabIdOfAnyPage(steward.serviceWorker, page);

    // No host access at install: Chrome gives Steward no site, and Steward reads none.
    expect(await grantedOrigins(steward.serviceWorker)).toEqual([]);
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
    expect(await fetchIsNative(page)).toBe(true);

    // Without the toolbar click Chrome hides the tab's address from Steward: the panel can only say how to allow it.
    let panel = await openPinnedPanel(page, steward.extensionId, tabId);
    await expect(panel.getByRole('region', { name: 'Site access' })).toContainText('Steward cannot see this tab’s address');
    await panel.close();

    // The person clicks Steward's toolbar button on the shop: Chrome shows Steward this tab (activeTab).
    await clickStewardButton(steward, page);
    panel = await openPinnedPanel(page, steward.extensionId, tabId);
    await expect(panel.getByRole('banner')).toContainText(await page.title());
    const access = panel.getByRole('region', { name: 'Site access' });
    await expect(access).toContainText(`Steward does not read ${shop}`);
    // Nothing to show for a site Steward may not read: no observation, no tool list.
    await expect(panel.getByRole('region', { name: 'What Steward sees' })).toHaveCount(0);
    await expect(panel.getByRole('region', { name: /Page tools/ })).toHaveCount(0);

    // The person said yes to the shop in Chrome's extension settings earlier: Chrome answers Steward's request without a prompt.
    await grantInChromeSettings(steward, [sites.urls.shop]);
    await access.getByRole('button', { name: `Allow ${shop}` }).click();
    await expect(access.getByRole('status')).toContainText(`Steward now observes ${shop}`);
    expect(await grantedOrigins(steward.serviceWorker)).toEqual([`${shop}/*`]);
    expect(await registeredMatches(steward.serviceWorker)).toEqual([`${shop}/*`]);
    await expect(panel.getByRole('region', { name: 'What Steward sees' })).toContainText(`order ${SHOP_ORDER}`);
    expect(await page.evaluate(() => (window as unknown as { keptMark?: number }).keptMark)).toBe(42);
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: true });

    // Another demo site stays unread, and Chrome gives Steward nothing there.
    const clinic = await steward.context.newPage();
    await clinic.goto(sites.urls.clinic);
    const clinicTab = await tabIdOfAnyPage(steward.serviceWorker, clinic);
    expect(await fetchIsNative(clinic)).toBe(true);
    expect(await observeInWorker(steward.serviceWorker, clinicTab)).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });

    // Settings lists exactly the allowed site; removing it stops observation at once and gives Chrome's access back.
    await showView(panel, 'Settings');
    const list = panel.getByRole('list', { name: 'Allowed sites' });
    await expect(list.getByRole('listitem')).toHaveText([new RegExp(shop.replace(/[.:/]/g, '\\$&'))]);
    await list.getByRole('button', { name: `Remove ${shop}` }).click();
    await expect(panel.getByRole('group', { name: 'Sites Steward may observe' }).getByRole('status')).toContainText(`Removed ${shop}`);
    await expect(list.getByRole('listitem')).toHaveText(['No site allowed yet.']);
    expect(await grantedOrigins(steward.serviceWorker)).toEqual([]);
    expect(await registeredMatches(steward.serviceWorker)).toEqual([]);
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
    // After a reload the page has no Steward script at all: still nothing to observe, and the panel offers "Allow" again.
    await page.reload();
    expect(await fetchIsNative(page)).toBe(true);
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
    await showView(panel, 'This tab');
    await expect(panel.getByRole('region', { name: 'Site access' }).getByRole('button', { name: `Allow ${shop}` })).toBeVisible();
  });

  test('"Allow" with no earlier grant puts up Chrome\'s prompt: until the person answers, the site is not allowed and the panel says it waits for Chrome', async ({ steward, sites }) => {
    const shop = new URL(sites.urls.shop).origin;
    const page = await steward.context.newPage();
    await page.goto(sites.urls.shop);
    const tabId = await tabIdOfAnyPage(steward.serviceWorker, page);
    await clickStewardButton(steward, page);
    const panel = await openPinnedPanel(page, steward.extensionId, tabId);
    const access = panel.getByRole('region', { name: 'Site access' });
    await access.getByRole('button', { name: `Allow ${shop}` }).click();
    // Chrome's prompt is up (headless Chromium cannot answer it): nothing is granted, listed or registered.
    await expect(access.getByRole('status')).toContainText(`Waiting for Chrome: it asks you whether Steward may read ${shop}`);
    expect(await grantedOrigins(steward.serviceWorker)).toEqual([]);
    expect(await registeredMatches(steward.serviceWorker)).toEqual([]);
    expect(await steward.serviceWorker.evaluate(async () => (await chrome.storage.local.get('steward.sites'))['steward.sites'] ?? null)).toBeNull();
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
  });

  test('a site typed in Settings is allowed before its page opens and observed from document_start: network evidence included', async ({ steward, sites }) => {
    const page = await steward.context.newPage();
    await page.goto(sites.urls.clinic);
    const panel = await openPinnedPanel(page, steward.extensionId, await tabIdOfAnyPage(steward.serviceWorker, page));
    await showView(panel, 'Settings');
    const shop = new URL(sites.urls.shop).origin;
    await grantInChromeSettings(steward, [sites.urls.shop]);
    const group = panel.getByRole('group', { name: 'Sites Steward may observe' });
    // Not a site: said so, nothing asked of Chrome.
    await group.getByLabel('Allow a site by its address').fill('chrome://settings');
    await group.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect(group.getByRole('status')).toContainText('is not a web site’s address');
    await group.getByLabel('Allow a site by its address').fill(`${sites.urls.shop}/orders`);
    await group.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect(panel.getByRole('list', { name: 'Allowed sites' })).toContainText(shop);
    expect(await grantedOrigins(steward.serviceWorker)).toEqual([`${shop}/*`]);
    await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
    await expect(page.locator('#live-status')).toContainText(/awaiting payment/i);
    // Steward's main world was there from document_start.
    expect(await fetchIsNative(page)).toBe(false);
    const tabId = await tabIdOfAnyPage(steward.serviceWorker, page);
    await expect.poll(async () => ((await observeInWorker(steward.serviceWorker, tabId)) as { ok: boolean; data?: { network?: unknown[] } }).ok).toBe(true);
    expect((await observeViaPanel(panel, tabId)).state?.evidence).toContain('network');
  });
});

/** Opens the shop's order page (its status arrives by fetch) and returns the evidence of its observed state. */
async function shopOrderEvidence(context: BrowserContext, shopUrl: string, panel: Page, tabIdOf: (page: Page) => Promise<number>): Promise<string[]> {
  const shop = await context.newPage();
  await shop.goto(`${shopUrl}/orders/${SHOP_ORDER}`);
  await expect(shop.locator('#live-status')).toContainText(/awaiting payment/i);
  const tabId = await tabIdOf(shop);
  return (await observeViaPanel(panel, tabId)).state?.evidence ?? [];
}

test.describe('the WebMCP polyfill setting', () => {
  test.use({ nativeWebMcp: false });

  test('turning the polyfill off removes it from pages loaded afterwards; network evidence stays; turning it on brings it back', async ({ steward, sites, openPanel, tabIdOf }) => {
    const page = await steward.context.newPage();
    await page.goto(sites.urls.clinic);
    const hasModelContext = () => page.evaluate(() => 'modelContext' in document);
    expect(await hasModelContext()).toBe(true);
    const panel = await openPanel(page);
    await showView(panel, 'This tab');
    await expect(panel.getByRole('article', { name: 'list_doctors', exact: true })).toContainText('WebMCP polyfill');

    const setPolyfill = async (on: boolean) => {
      await showView(panel, 'Settings');
      const box = panel.getByLabel(/Provide WebMCP on pages/);
      if (on) await box.check();
      else await box.uncheck();
      await panel.getByRole('button', { name: 'Save settings' }).click();
      await expect(panel.getByText('Settings saved.')).toBeVisible();
      // The service worker re-registers the main-world script; wait until Chrome has the new one.
      await expect
        .poll(() => steward.serviceWorker.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).find((s) => s.world === 'MAIN')?.js?.[0]))
        .toMatch(on ? /main-world/ : /main-network/);
    };

    await setPolyfill(false);
    await page.reload();
    expect(await hasModelContext()).toBe(false);
    await showView(panel, 'This tab');
    await expect(panel.getByText(/No WebMCP tools\. WebMCP is not available on this page/)).toBeVisible();

    // Network observation does not depend on the polyfill.
    expect(await shopOrderEvidence(steward.context, sites.urls.shop, panel, tabIdOf)).toContain('network');

    await setPolyfill(true);
    await page.reload();
    expect(await hasModelContext()).toBe(true);
    await showView(panel, 'This tab');
    await expect(panel.getByRole('article', { name: 'list_doctors', exact: true })).toContainText('WebMCP polyfill');
  });
});

test.describe('a browser with native WebMCP', () => {
  test('once a page reports native WebMCP, pages get the network-only script: native tools and network evidence remain', async ({ steward, sites, openPanel, tabIdOf }) => {
    const mainScript = () => steward.serviceWorker.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).find((s) => s.world === 'MAIN')?.js?.[0] ?? '');
    const page = await steward.context.newPage();
    await page.goto(sites.urls.clinic);
    await expect.poll(mainScript).toMatch(/main-network/);
    await page.reload();
    const panel = await openPanel(page);
    await showView(panel, 'This tab');
    await expect(panel.getByRole('article', { name: 'list_doctors', exact: true })).toContainText('native WebMCP');
    await showView(panel, 'Settings');
    await expect(panel.getByText('This browser has WebMCP of its own')).toBeVisible();

    expect(await shopOrderEvidence(steward.context, sites.urls.shop, panel, tabIdOf)).toContain('network');
  });
});

test.describe("Chrome's own site access", () => {
  test("when the person takes Steward's access to an allowed site back in chrome://extensions, Steward stops reading it at once; the site waits in Settings, and is read again once the person gives the access back", async ({
    steward,
    sites,
    openPanel,
    tabIdOf,
  }) => {
    const shop = new URL(sites.urls.shop).origin;
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
    const tabId = await tabIdOf(page);
    const panel = await openPanel(page);
    await showView(panel, 'This tab');
    await expect(panel.getByRole('region', { name: 'Site access' })).toContainText(`Steward observes ${shop}`);
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: true });

    await revokeInChromeSettings(steward, [sites.urls.shop]);

    // Chrome's onRemoved: the shop's scripts go, the open page is no longer answered.
    await expect.poll(() => registeredMatches(steward.serviceWorker)).not.toContain(`${shop}/*`);
    expect(await grantedOrigins(steward.serviceWorker)).not.toContain(`${shop}/*`);
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
    await page.reload();
    expect(await fetchIsNative(page)).toBe(true);
    // The other demo sites are untouched.
    expect(await registeredMatches(steward.serviceWorker)).toContain(`${new URL(sites.urls.clinic).origin}/*`);

    await showView(panel, 'Settings');
    const list = panel.getByRole('list', { name: 'Allowed sites' });
    await expect(list.getByRole('listitem').filter({ hasText: shop })).toContainText('Chrome’s access was taken back: not read');
    await expect(list.getByRole('button', { name: `Allow ${shop} again` })).toBeVisible();
    // The person adds the site back in Chrome's extension settings: Chrome hands the access to Steward
    // (onAdded), and the site, still on the list, is read again.
    await grantInChromeSettings(steward, [sites.urls.shop]);
    await expect.poll(() => registeredMatches(steward.serviceWorker)).toContain(`${shop}/*`);
    await expect(list.getByRole('listitem').filter({ hasText: shop })).not.toContainText('taken back');
    await page.reload();
    await expect.poll(async () => ((await observeInWorker(steward.serviceWorker, tabId)) as { ok: boolean }).ok).toBe(true);
  });
});
