import type { BrowserContext, Page, Worker } from '@playwright/test';
import { DIST, allowSites, browserCdp, launchWithSteward, loadUnpacked, type StewardBrowser } from './browser.ts';

/**
 * One Chromium with Steward for the tests of one spec file: launching costs seconds, a reset a
 * fraction of that. Between tests Steward is uninstalled and loaded again (CDP Extensions.uninstall
 * and loadUnpacked, the same unpacked dist/ that was loaded so at launch): Chrome deletes everything an
 * uninstalled extension kept (chrome.storage, its IndexedDB, registered content scripts, session
 * rules, alarms, host grants) and the reinstall is a fresh install (onInstalled "install", a new
 * service worker). The rest of the profile a test could have touched goes too: every page, the
 * demo sites' cookies and storage, the HTTP cache. So each test sees what a fresh profile shows.
 */

export interface SharedLaunch {
  /** The spec file: a new file gets a new browser (and profile). */
  file: string;
  nativeWebMcp: boolean;
  /** Sites on Steward's list at the start of the test (granted by Chrome as the person did earlier). */
  allowSites: string[];
  /** Origins whose cookies and storage a test may have left (the demo sites). */
  origins: string[];
}

interface Current {
  key: string;
  browser: StewardBrowser;
  /** Whether a test has had this browser since its launch (then it must be reset first). */
  used: boolean;
}

export class SharedBrowser {
  private current: Current | undefined;

  /** Steward for the next test: the shared browser reset, or a new one when the file or launch options changed. */
  async acquire(launch: SharedLaunch): Promise<StewardBrowser> {
    const key = JSON.stringify([launch.file, launch.nativeWebMcp]);
    if (this.current && (this.current.key !== key || !isOpen(this.current.browser.context))) await this.release();
    if (!this.current) {
      const browser = await launchWithSteward({ nativeWebMcp: launch.nativeWebMcp, allowSites: launch.allowSites, loadOverCdp: true });
      this.current = { key, browser, used: true };
      return shared(browser, browser.serviceWorker);
    }
    const serviceWorker = await resetSteward(this.current.browser, launch);
    return shared(this.current.browser, serviceWorker);
  }

  /** Closes the shared browser (at the end of the worker, or before a test that launches its own). */
  async release(): Promise<void> {
    const browser = this.current?.browser;
    this.current = undefined;
    await browser?.close().catch(() => undefined);
  }
}

const isOpen = (context: BrowserContext) => context.browser()?.isConnected() ?? false;

/** The test's view of the shared browser: closing it is the fixture's job, not the test's. */
function shared(browser: StewardBrowser, serviceWorker: Worker): StewardBrowser {
  return { context: browser.context, serviceWorker, extensionId: browser.extensionId, close: async () => undefined };
}

async function resetSteward(browser: StewardBrowser, launch: SharedLaunch): Promise<Worker> {
  const { context, extensionId } = browser;
  // A fresh profile shows one blank page. The test's pages close before Steward comes back, so its new worker never sees them.
  const blank = await context.newPage();
  await Promise.all(context.pages().map((page) => (page === blank ? undefined : page.close())));
  // What the sites kept goes while Steward is reinstalled: neither waits for the other.
  const forgotten = forgetSites(context, launch.origins, blank);
  forgotten.catch(() => undefined); // heard below
  const cdp = await browserCdp(context);
  try {
    await cdp.send('Extensions.uninstall', { id: extensionId });
    const worker = await loadUnpacked(context, DIST);
    if (new URL(worker.url()).host !== extensionId) throw new Error(`Steward came back as ${worker.url()}, not ${extensionId}`);
    await forgotten;
    if (launch.allowSites.length > 0) await allowSites({ context, serviceWorker: worker, extensionId }, launch.allowSites);
    return worker;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** Cookies, storage and cached responses of the sites a test visited, gone as in a fresh profile. */
async function forgetSites(context: BrowserContext, origins: string[], page: Page): Promise<void> {
  await context.clearCookies();
  const cdp = await context.newCDPSession(page);
  try {
    for (const origin of origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    await cdp.send('Network.clearBrowserCache');
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
