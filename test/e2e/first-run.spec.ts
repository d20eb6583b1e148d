import type { Page, Worker } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { allowSites, clickStewardButton, tabIdOfAnyPage } from '../harness/browser.ts';
import { SHOP_ORDER } from '../harness/panel-helpers.ts';

const welcomeRecord = (worker: Worker) => worker.evaluate(async () => (await chrome.storage.local.get('steward.welcome'))['steward.welcome']);
const welcomeOf = (panel: Page) => panel.getByRole('region', { name: 'Welcome to Steward' });
const tab = (panel: Page, name: string) => panel.getByRole('tab', { name: new RegExp(`^${name}`) });

// A new profile for each test, not a reinstall into a shared one: the first run is about the profile Chrome starts with.
test.use({ freshBrowser: true });

/**
 * The first run: Chrome lets Steward open its side panel only on a click, so a fresh install's
 * first panel opens on a welcome card above the views (three steps, each leading to its control),
 * until the person dismisses it.
 */
test.describe('a fresh profile, before any site is allowed', () => {
  test.use({ demoSitesAllowed: false });

  test('the panel opens on the welcome, whose steps lead to their controls; dismissed, it stays hidden across reloads and panels', async ({ steward, sites }) => {
    const shop = new URL(sites.urls.shop).origin;
    const page = await steward.context.newPage();
    const url = `${sites.urls.shop}/orders/${SHOP_ORDER}`;
    await page.goto(url);
    const panelUrl = `chrome-extension://${steward.extensionId}/src/sidepanel/index.html?tabId=${await tabIdOfAnyPage(steward.serviceWorker, page)}`;
    // The person opens the panel with Steward's toolbar button: Chrome shows Steward this tab (activeTab).
    await clickStewardButton(steward, page);
    const panel = await steward.context.newPage();
    await panel.goto(panelUrl);

    const welcome = welcomeOf(panel);
    await expect(welcome).toBeVisible();
    await expect(welcome.getByRole('listitem')).toHaveCount(3);
    // It covers nothing: the views are all there beneath it.
    await expect(tab(panel, 'Co-pilot')).toHaveAttribute('aria-selected', 'true');
    await expect(panel.getByLabel('What should the co-pilot do on this page?')).toBeVisible();

    // Step one leads to the tab's own "Allow" control; step two to the model's settings.
    await welcome.getByRole('button', { name: 'Go to This tab' }).click();
    await expect(tab(panel, 'This tab')).toHaveAttribute('aria-selected', 'true');
    await expect(panel.getByRole('region', { name: 'Site access' }).getByRole('button', { name: `Allow ${shop}` })).toBeVisible();
    await welcome.getByRole('button', { name: 'Set a model in Settings' }).click();
    await expect(tab(panel, 'Settings')).toHaveAttribute('aria-selected', 'true');
    await expect(panel.getByLabel('Provider')).toBeVisible();
    // Step three happens in a terminal: said in words.
    await expect(welcome.getByRole('listitem').nth(2)).toContainText('steward-bridge install');
    await expect(welcome.getByRole('listitem').nth(2)).toContainText('steward-bridge config <client>');

    // Once a site is allowed the welcome stays (two steps to go), step one marked done.
    await allowSites(steward, [sites.urls.shop]);
    await panel.reload();
    await expect(welcome.getByRole('listitem').first()).toContainText('Done: 1 site allowed.');
    await expect(welcome.getByRole('button', { name: 'Go to This tab' })).toHaveCount(0);

    await welcome.getByRole('button', { name: 'Dismiss the welcome' }).click();
    await expect(welcome).toHaveCount(0);
    expect(await welcomeRecord(steward.serviceWorker)).toEqual({ status: 'dismissed' });
    await panel.reload();
    await expect(tab(panel, 'Co-pilot')).toBeVisible();
    await expect(welcome).toHaveCount(0);
    const another = await steward.context.newPage();
    await another.goto(panelUrl);
    await expect(tab(another, 'Co-pilot')).toBeVisible();
    await expect(welcomeOf(another)).toHaveCount(0);
  });
});

test.describe('a profile whose sites were allowed before the panel first opened (npm start, or carried over)', () => {
  test('shows no welcome, then or later', async ({ steward, sites, openPanel }) => {
    const page = await steward.context.newPage();
    await page.goto(sites.urls.shop);
    const panel = await openPanel(page);
    // The panel decided (and recorded) that there is nothing to welcome this person to.
    await expect.poll(() => welcomeRecord(steward.serviceWorker)).toEqual({ status: 'skipped' });
    await expect(tab(panel, 'Co-pilot')).toBeVisible();
    await expect(welcomeOf(panel)).toHaveCount(0);
    await panel.reload();
    await expect(tab(panel, 'Co-pilot')).toBeVisible();
    await expect(welcomeOf(panel)).toHaveCount(0);
  });
});
