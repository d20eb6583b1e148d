import { test, expect } from '../harness/fixtures.ts';
import { showView } from '../harness/panel-helpers.ts';

/**
 * Which WebMCP a tab uses, in the panel's "This tab" view: the browser's own where Chromium has
 * its WebMCP feature on (the harness passes both feature names, `WebMCPTesting` for 156 and
 * `WebMCP` from 157), Steward's polyfill where it has not, and neither where the polyfill is off.
 */

test.describe('Chromium with its WebMCP feature on', () => {
  test.use({ nativeWebMcp: true });

  test('the panel says the tab uses native WebMCP, with or without tools on the page', async ({ steward, sites, openPanel }) => {
    const page = await steward.context.newPage();
    await page.goto(sites.urls.clinic);
    expect(await page.evaluate(() => (document as unknown as { modelContext?: object }).modelContext?.constructor.name)).toBe('ModelContext');
    const panel = await openPanel(page);
    await showView(panel, 'This tab');
    await expect(panel.getByText('WebMCP: native', { exact: false })).toBeVisible();
    await expect(panel.getByRole('article', { name: 'list_doctors', exact: true })).toBeVisible();

    // The shop registers no tools: the API is the browser's all the same.
    const shop = await steward.context.newPage();
    await shop.goto(sites.urls.shop);
    const shopPanel = await openPanel(shop);
    await showView(shopPanel, 'This tab');
    await expect(shopPanel.getByText('WebMCP: native', { exact: false })).toBeVisible();
    await expect(shopPanel.getByText(/No WebMCP tools\. The browser supports WebMCP/)).toBeVisible();
  });
});

test.describe('Chromium without its WebMCP feature', () => {
  test.use({ nativeWebMcp: false });

  test('the panel says the tab uses Steward’s polyfill, and none once the polyfill is turned off', async ({ steward, sites, openPanel }) => {
    const page = await steward.context.newPage();
    await page.goto(sites.urls.clinic);
    const panel = await openPanel(page);
    await showView(panel, 'This tab');
    await expect(panel.getByText('WebMCP: Steward’s polyfill', { exact: false })).toBeVisible();
    await expect(panel.getByText('WebMCP: native', { exact: false })).toHaveCount(0);
    await expect(panel.getByRole('article', { name: 'list_doctors', exact: true })).toContainText('WebMCP polyfill');

    await showView(panel, 'Settings');
    await panel.getByLabel(/Provide WebMCP on pages/).uncheck();
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await expect(panel.getByText('Settings saved.')).toBeVisible();
    await expect.poll(() => steward.serviceWorker.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).find((s) => s.world === 'MAIN')?.js?.[0])).toMatch(/main-network/);
    await page.reload();
    await showView(panel, 'This tab');
    await expect(panel.getByText('WebMCP: none on this page', { exact: false })).toBeVisible();
    await expect(panel.getByText('WebMCP: Steward’s polyfill', { exact: false })).toHaveCount(0);
  });
});
