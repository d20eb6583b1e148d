import { test as base, type Page, type Worker } from '@playwright/test';
import { expect } from './expect.ts';
import { startDemoSites, freePorts } from '../../sites/server.ts';
import { launchWithSteward, type StewardBrowser } from './browser.ts';
import { SharedBrowser } from './shared-browser.ts';
import { watchBrowser } from './diagnostics.ts';

type Sites = Awaited<ReturnType<typeof startDemoSites>>;

interface Fixtures {
  nativeWebMcp: boolean;
  /** The demo sites start on Steward's list of allowed sites (off: the person has allowed none yet). */
  demoSitesAllowed: boolean;
  /**
   * A browser of the test's own, launched for it and closed after it: for tests that restart or
   * kill Chromium, that need what only a new profile has, or that install Playwright's clock (it
   * stays on the whole context, and no API takes it out). Off: the spec file's
   * shared browser, with Steward reinstalled between tests (shared-browser.ts).
   * STEWARD_E2E_FRESH_BROWSER=1 gives every test its own (to compare, or to tell a leak between tests).
   */
  freshBrowser: boolean;
  /** The browser's UI language (default: Chromium's, English here); tests of one language share a browser. */
  uiLanguage: string | undefined;
  steward: StewardBrowser;
  /** Opens Steward's side panel page as a tab, pinned to the tab of `page`. */
  openPanel: (page: Page) => Promise<Page>;
  tabIdOf: (page: Page) => Promise<number>;
}

export const test = base.extend<Fixtures, { sites: Sites; sharedBrowser: SharedBrowser }>({
  sites: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const sites = await startDemoSites({ ports: freePorts() });
      await use(sites);
      await sites.stop();
    },
    { scope: 'worker' },
  ],
  sharedBrowser: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const shared = new SharedBrowser();
      await use(shared);
      await shared.release();
    },
    { scope: 'worker' },
  ],
  nativeWebMcp: [true, { option: true }],
  demoSitesAllowed: [true, { option: true }],
  freshBrowser: [process.env.STEWARD_E2E_FRESH_BROWSER === '1', { option: true }],
  uiLanguage: [undefined, { option: true }],
  steward: async ({ nativeWebMcp, demoSitesAllowed, freshBrowser, uiLanguage, sites, sharedBrowser }, use, testInfo) => {
    for (const url of Object.values(sites.urls)) await fetch(new URL('/__demo/reset', url), { method: 'POST' });
    const allowSites = demoSitesAllowed ? Object.values(sites.urls) : [];
    if (!freshBrowser) {
      const origins = Object.values(sites.urls).map((u) => new URL(u).origin);
      const browser = await sharedBrowser.acquire({ file: testInfo.file, nativeWebMcp, allowSites, origins, ...(uiLanguage ? { uiLanguage } : {}) });
      const watch = watchBrowser(browser.context);
      await use(browser);
      await watch.report(testInfo);
      watch.stop();
      await sharedBrowser.quiet();
      return;
    }
    await sharedBrowser.release();
    const browser = await launchWithSteward({ nativeWebMcp, allowSites, ...(uiLanguage ? { uiLanguage } : {}) });
    const watch = watchBrowser(browser.context);
    await use(browser);
    await watch.report(testInfo);
    watch.stop();
    await browser.close();
  },
  tabIdOf: async ({ steward }, use) => {
    await use((page) => tabIdOf(steward.serviceWorker, page));
  },
  openPanel: async ({ steward }, use) => {
    await use(async (page) => {
      const tabId = await tabIdOf(steward.serviceWorker, page);
      const panel = await steward.context.newPage();
      await panel.goto(`chrome-extension://${steward.extensionId}/src/sidepanel/index.html?tabId=${tabId}`);
      return panel;
    });
  },
});

/**
 * The tab whose top frame's content script reported this page's URL: waiting for the report also
 * waits until Steward's page script is up in that tab (tests of unlisted sites query tabs by URL).
 */
export async function tabIdOf(serviceWorker: Worker, page: Page): Promise<number> {
  const url = page.url();
  let tabId: number | undefined;
  await expect
    .poll(
      async () => {
        tabId = await serviceWorker.evaluate(async (wanted) => {
          const stored = (await chrome.storage.session.get('webmcp.frames'))['webmcp.frames'] as Array<{ tabId: number; frameId: number; url: string }> | undefined;
          return stored?.find((f) => f.frameId === 0 && f.url.split('#')[0] === wanted.split('#')[0])?.tabId;
        }, url);
        return tabId;
      },
      { message: `Steward never heard from the content script of ${url}` },
    )
    .toBeDefined();
  return tabId!;
}

export { expect };
