import type { BrowserContext, Page, Worker } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { SHOP_ORDER, observeViaPanel, showView } from './panel-helpers.ts';

/** Without a content script there is no report to find the tab by: Steward's host access lets it query tabs by URL. */
const tabIdByUrl = (worker: Worker, url: string) => worker.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, url);
/** Steward's main-world script wraps fetch at document_start; on a page it never entered, fetch is the browser's own. */
const fetchIsNative = (page: Page) => page.evaluate(() => window.fetch.toString().includes('[native code]'));
const observeInWorker = (worker: Worker, tabId: number) =>
  worker.evaluate((id) => (globalThis as unknown as { stewardObservation: { observeTab(id: number): Promise<unknown> } }).stewardObservation.observeTab(id), tabId);

/**
 * Steward reads only the sites the person allows: its page scripts are registered for those
 * origins alone, and every message to a tab is gated by site. Here no demo site is allowed at
 * the start; the person allows one from the side panel, then removes it again.
 */
test.describe('sites Steward may observe', () => {
  test.use({ demoSitesAllowed: false });

  const openPinnedPanel = async (page: Page, extensionId: string, tabId: number) => {
    const panel = await page.context().newPage();
    await panel.goto(`chrome-extension://${extensionId}/src/sidepanel/index.html?tabId=${tabId}&view=tab`);
    return panel;
  };

  test('an unlisted site is not read; "Allow" starts observing the open page without reloading it; "Remove" stops it', async ({ steward, sites }) => {
    const shop = new URL(sites.urls.shop).origin;
    const page = await steward.context.newPage();
    const url = `${sites.urls.shop}/orders/${SHOP_ORDER}`;
    await page.goto(url);
    // A mark in the page: it survives only if the page is not reloaded.
    await page.evaluate(() => ((window as unknown as { keptMark: number }).keptMark = 42));
    const tabId = (await tabIdByUrl(steward.serviceWorker, url))!;
    expect(tabId).toBeGreaterThan(0);

    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
    // Nothing of Steward entered the page.
    expect(await fetchIsNative(page)).toBe(true);
    const panel = await openPinnedPanel(page, steward.extensionId, tabId);
    // The header names the tab (Steward's host access lets it read the title).
    await expect(panel.getByRole('banner')).toContainText(await page.title());
    const access = panel.getByRole('region', { name: 'Site access' });
    await expect(access).toContainText(`Steward does not read ${shop}`);
    // Nothing to show for a site Steward may not read: no observation, no tool list.
    await expect(panel.getByRole('region', { name: 'What Steward sees' })).toHaveCount(0);
    await expect(panel.getByRole('region', { name: /Page tools/ })).toHaveCount(0);

    await access.getByRole('button', { name: `Allow ${shop}` }).click();
    await expect(access.getByRole('status')).toContainText(`Steward now observes ${shop}`);
    await expect(panel.getByRole('region', { name: 'What Steward sees' })).toContainText(`order ${SHOP_ORDER}`);
    expect(await page.evaluate(() => (window as unknown as { keptMark?: number }).keptMark)).toBe(42);
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: true });

    // Another demo site stays unread.
    const clinic = await steward.context.newPage();
    await clinic.goto(sites.urls.clinic);
    expect(await fetchIsNative(clinic)).toBe(true);
    const clinicTab = (await tabIdByUrl(steward.serviceWorker, clinic.url()))!;
    expect(await observeInWorker(steward.serviceWorker, clinicTab)).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });

    // Settings lists exactly the allowed site; removing it stops observation at once.
    await showView(panel, 'Settings');
    const list = panel.getByRole('list', { name: 'Allowed sites' });
    await expect(list.getByRole('listitem')).toHaveText([new RegExp(shop.replace(/[.:/]/g, '\\$&'))]);
    await list.getByRole('button', { name: `Remove ${shop}` }).click();
    await expect(panel.getByRole('group', { name: 'Sites Steward may observe' }).getByRole('status')).toContainText(`Removed ${shop}`);
    await expect(list.getByRole('listitem')).toHaveText(['No site allowed yet.']);
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
    // After a reload the page has no Steward script at all: still nothing to observe, and the panel offers "Allow" again.
    await page.reload();
    expect(await fetchIsNative(page)).toBe(true);
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
    await showView(panel, 'This tab');
    await expect(panel.getByRole('region', { name: 'Site access' }).getByRole('button', { name: `Allow ${shop}` })).toBeVisible();
  });

  test('a site allowed before its page opens is observed from document_start: network evidence included', async ({ steward, sites }) => {
    const page = await steward.context.newPage();
    await page.goto(sites.urls.clinic);
    const panel = await openPinnedPanel(page, steward.extensionId, (await tabIdByUrl(steward.serviceWorker, page.url()))!);
    await showView(panel, 'Settings');
    const shop = new URL(sites.urls.shop).origin;
    // The panel offers the current tab's site; allow the shop through the same message the button sends.
    await panel.evaluate((origin) => chrome.runtime.sendMessage({ type: 'panel/site-allow', origin }), shop);
    await expect(panel.getByRole('list', { name: 'Allowed sites' })).toContainText(shop);
    await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
    await expect(page.locator('#live-status')).toContainText(/awaiting payment/i);
    // Steward's main world was there from document_start.
    expect(await fetchIsNative(page)).toBe(false);
    const tabId = (await tabIdByUrl(steward.serviceWorker, page.url()))!;
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
  test('when the person restricts Steward in chrome://extensions, an allowed site is not read and the panel says why', async ({ steward, sites, openPanel }) => {
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
    const panel = await openPanel(page);
    await showView(panel, 'This tab');
    const shop = new URL(sites.urls.shop).origin;
    await expect(panel.getByRole('region', { name: 'Site access' })).toContainText(`Steward observes ${shop}`);
    const tabId = (await tabIdByUrl(steward.serviceWorker, page.url()))!;
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: true });

    // The person's choice in Chrome's extension settings ("Site access: On specific sites", none listed),
    // made through the same API chrome://extensions itself calls.
    const settings = await steward.context.newPage();
    await settings.goto('chrome://extensions/');
    await settings.evaluate(
      (id) =>
        (chrome as unknown as { developerPrivate: { updateExtensionConfiguration(c: object): Promise<void> } }).developerPrivate.updateExtensionConfiguration({
          extensionId: id,
          hostAccess: 'ON_SPECIFIC_SITES',
        }),
      steward.extensionId,
    );
    await page.reload();
    await panel.reload();
    await showView(panel, 'This tab');
    // Chrome now hides the tab's address from Steward as well: the panel can only say why it sees nothing.
    await expect(panel.getByRole('region', { name: 'Site access' })).toContainText('Chrome’s site access keeps Steward out of it');
    await expect(panel.getByRole('region', { name: 'What Steward sees' })).toHaveCount(0);
    expect(await observeInWorker(steward.serviceWorker, tabId)).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
  });
});
