import type { BrowserContext, Page, Worker } from '@playwright/test';
import { DIST, allowSites, browserCdp, launchWithSteward, loadUnpacked, pageScriptsRegistered, settingsChanged, type StewardBrowser } from './browser.ts';

/**
 * One Chromium with Steward for many tests, across spec files: launching costs seconds (most of
 * them Chrome's first read of an extension's managed policy), a reset a fraction of that. There
 * is one browser per set of launch options (native WebMCP or the polyfill, the UI language; the
 * KEPT_BROWSERS most recently used stay open), a new one after RESETS_PER_BROWSER tests (a bound on
 * what a long-lived profile gathers), and one per spec file with STEWARD_E2E_BROWSER_PER_FILE=1 (to tell
 * a leak between files). Between tests Steward is reset in place (`resetInPlace`): its own test
 * hook empties everything it keeps (chrome.storage, its IndexedDB, registered content scripts,
 * session rules, alarms, notifications) and writes what a fresh install writes, then its service
 * worker is stopped and started, so nothing stays in memory either. Chrome's host grants stay when
 * they are exactly the next test's (extra ones are given back); when a test took one back, or
 * changed Steward's site access in chrome://extensions, Steward is uninstalled and loaded again instead (CDP Extensions.uninstall and loadUnpacked: Chrome then
 * deletes everything, grants included). The rest of the profile a test could have touched goes
 * too: every page, the demo sites' cookies and storage, the HTTP cache. So each test sees what a
 * fresh profile shows.
 */

export interface SharedLaunch {
  /** The spec file (a new file gets a new browser with STEWARD_E2E_BROWSER_PER_FILE=1). */
  file: string;
  nativeWebMcp: boolean;
  /** The browser's UI language (Chromium's --lang), when a test sets one: a browser per language. */
  uiLanguage?: string;
  /** Sites on Steward's list at the start of the test (granted by Chrome as the person did earlier). */
  allowSites: string[];
  /** Origins whose cookies and storage a test may have left (the demo sites). */
  origins: string[];
}

interface Current {
  key: string;
  browser: StewardBrowser;
  /** Tests that have had this browser since its launch. */
  tests: number;
}

const RESETS_PER_BROWSER = 100;
/** How long closing a test's pages may take before that browser is given up. */
const QUIET_MS = 15_000;
/**
 * Browsers kept between tests, one per launch key (native WebMCP or the polyfill, a UI language):
 * spec files of either kind alternate through the suite, and each switch would otherwise cost a
 * launch. The least recently used one closes beyond this.
 */
const KEPT_BROWSERS = 2;
const perFile = process.env.STEWARD_E2E_BROWSER_PER_FILE === '1';

export class SharedBrowser {
  /** By launch key, the most recently used last. */
  private readonly kept = new Map<string, Current>();
  private current: Current | undefined;

  /** Steward for the next test: a kept browser reset, or a new one (see above). */
  async acquire(launch: SharedLaunch): Promise<StewardBrowser> {
    const key = JSON.stringify([perFile ? launch.file : '', launch.nativeWebMcp, launch.uiLanguage ?? '']);
    if (perFile && this.current && this.current.key !== key) await this.release();
    const kept = this.kept.get(key);
    this.kept.delete(key);
    if (kept && kept.tests < RESETS_PER_BROWSER && isOpen(kept.browser.context)) {
      this.kept.set(key, kept);
      this.current = kept;
      kept.tests += 1;
      const serviceWorker = await resetSteward(kept.browser, launch);
      // A reinstall brings another Worker: the next reset talks to this one.
      kept.browser = { ...kept.browser, serviceWorker };
      return shared(kept.browser, serviceWorker);
    }
    await kept?.browser.close().catch(() => undefined);
    for (const [oldKey, old] of this.kept) {
      if (this.kept.size < KEPT_BROWSERS) break;
      this.kept.delete(oldKey);
      await old.browser.close().catch(() => undefined);
    }
    const browser = await launchWithSteward({
      nativeWebMcp: launch.nativeWebMcp,
      allowSites: launch.allowSites,
      loadOverCdp: true,
      ...(launch.uiLanguage ? { uiLanguage: launch.uiLanguage } : {}),
    });
    settingsChanged.delete(browser.context);
    this.current = { key, browser, tests: 1 };
    this.kept.set(key, this.current);
    return shared(browser, browser.serviceWorker);
  }

  /**
   * After a test: its pages close, so that a browser waiting for the next test (maybe after spec
   * files that launch their own) runs nothing of it meanwhile.
   */
  async quiet(): Promise<void> {
    const current = this.current;
    const context = current?.browser.context;
    if (!current || !context || !isOpen(context)) return;
    // Chromium has, rarely, left a page's close unanswered after a test that passed: that browser
    // goes (the next test gets a fresh one) instead of the test's time, and the log says which page.
    const step = { now: 'opening a blank page' };
    const closed = closePagesButBlank(context, step).then(
      () => true,
      () => true,
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), QUIET_MS)));
    const done = await Promise.race([closed, hung]);
    clearTimeout(timer);
    if (done) return;
    console.error(`[e2e] ${step.now} got no answer within ${QUIET_MS / 1000} s: that browser is closed and the next test launches another`);
    for (const [key, kept] of this.kept) if (kept === current) this.kept.delete(key);
    this.current = undefined;
    // Not awaited past QUIET_MS either: a browser that hangs in its close is left to the worker's end.
    await Promise.race([current.browser.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, QUIET_MS))]);
  }

  /** Closes every kept browser (at the end of the worker, or before a test that launches its own). */
  async release(): Promise<void> {
    const browsers = [...this.kept.values()].map((k) => k.browser);
    this.kept.clear();
    this.current = undefined;
    await Promise.all(browsers.map((b) => b.close().catch(() => undefined)));
  }
}

const isOpen = (context: BrowserContext) => context.browser()?.isConnected() ?? false;

/** The test's view of the shared browser: closing it is the fixture's job, not the test's. */
function shared(browser: StewardBrowser, serviceWorker: Worker): StewardBrowser {
  return { context: browser.context, serviceWorker, extensionId: browser.extensionId, close: async () => undefined };
}

async function resetSteward(browser: StewardBrowser, launch: SharedLaunch): Promise<Worker> {
  const { context } = browser;
  // The test's pages close before Steward comes back, so its new worker never sees them.
  const blank = await closePagesButBlank(context);
  // What the sites kept goes while Steward is reset: neither waits for the other.
  const forgotten = forgetSites(context, launch.origins, blank);
  forgotten.catch(() => undefined); // heard below
  const inPlace = settingsChanged.has(context) ? undefined : await resetInPlace(browser, launch, blank);
  await forgotten;
  if (inPlace) return inPlace;
  const worker = await reinstall(browser, launch);
  settingsChanged.delete(context);
  return worker;
}

/**
 * Steward reset without reinstalling it (a fraction of the time): its own test hook empties what it
 * keeps and writes what a fresh install does (src/background/fresh-install.ts), then its worker is
 * stopped and started again, so nothing stays in memory either. Chrome's host access is what a
 * person granted and stays, when it is exactly what the next test expects (extra grants are given
 * back); undefined when it is not (a test took a grant back), and Steward is reinstalled instead.
 */
async function resetInPlace(browser: StewardBrowser, launch: SharedLaunch, blank: Page): Promise<Worker | undefined> {
  const { context, extensionId, serviceWorker } = browser;
  const wanted = [...new Set(launch.allowSites.map((u) => `${new URL(u).origin}/*`))].sort();
  const origins = [...new Set(launch.allowSites.map((u) => new URL(u).origin))];
  const ok = await serviceWorker
    .evaluate(
      async ({ wanted, origins }) => {
        const granted = (await chrome.permissions.getAll()).origins ?? [];
        if (!wanted.every((p) => granted.includes(p))) return false;
        const extra = granted.filter((p) => !wanted.includes(p));
        if (extra.length > 0 && !(await chrome.permissions.remove({ origins: extra }))) return false;
        await (globalThis as unknown as { stewardReset(sites: string[]): Promise<void> }).stewardReset(origins);
        (globalThis as unknown as { stewardResetMarker?: boolean }).stewardResetMarker = true;
        return true;
      },
      { wanted, origins },
    )
    .catch(() => false);
  if (!ok) return undefined;
  const startedBefore = Date.now();
  const page = await context.newCDPSession(blank);
  try {
    await page.send('ServiceWorker.enable');
    await page.send('ServiceWorker.stopAllWorkers');
    await page.send('ServiceWorker.startWorker', { scopeURL: `chrome-extension://${extensionId}/` });
  } finally {
    await page.detach().catch(() => undefined);
  }
  // Playwright's Worker follows the worker across the restart: the new one has no marker and a later start.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const fresh = await serviceWorker
      .evaluate((after) => {
        const scope = globalThis as unknown as { stewardResetMarker?: boolean; stewardPipeline?: { startedAt: number } };
        return scope.stewardResetMarker !== true && (scope.stewardPipeline?.startedAt ?? 0) >= after;
      }, startedBefore)
      .catch(() => false);
    if (fresh) break;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 20));
  }
  if (origins.length > 0) await pageScriptsRegistered(serviceWorker, origins);
  return serviceWorker;
}

/** Steward uninstalled and loaded again: Chrome forgets everything it kept, grants included. */
async function reinstall(browser: StewardBrowser, launch: SharedLaunch): Promise<Worker> {
  const { context, extensionId } = browser;
  const cdp = await browserCdp(context);
  try {
    await cdp.send('Extensions.uninstall', { id: extensionId });
    const worker = await loadUnpacked(context, DIST);
    if (new URL(worker.url()).host !== extensionId) throw new Error(`Steward came back as ${worker.url()}, not ${extensionId}`);
    if (launch.allowSites.length > 0) await allowSites({ context, serviceWorker: worker, extensionId }, launch.allowSites);
    return worker;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** What a fresh profile shows: one blank page. */
async function closePagesButBlank(context: BrowserContext, step = { now: '' }): Promise<Page> {
  const blank = await context.newPage();
  const open = context.pages().filter((page) => page !== blank);
  step.now = `closing ${open
    .map((page) =>
      page
        .url()
        .replace(/^chrome-extension:\/\/[a-p]{32}/, 'ext:')
        .slice(0, 100),
    )
    .join(', ')}`;
  await Promise.all(open.map((page) => page.close()));
  return blank;
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
