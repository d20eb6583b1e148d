import { chromium, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DIST = join(import.meta.dirname, '..', '..', 'dist');

export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
/** Chromium's native WebMCP: the feature is `WebMCPTesting` up to 156 and `WebMCP` from 157; Chromium ignores the name it does not know, so both go. */
export const NATIVE_WEBMCP_FLAG = '--enable-features=WebMCPTesting,WebMCP';
/** Lets a test press Steward's toolbar button (CDP Extensions.triggerAction over Playwright's pipe): `clickStewardButton`. */
const EXTENSION_ACTION_FLAG = '--enable-unsafe-extension-debugging';

export interface LaunchOptions {
  /** Chromium's native WebMCP (document.modelContext); off → Steward's polyfill path. */
  nativeWebMcp: boolean;
  /** Sites Steward may observe from the start, as if the person had allowed them earlier. */
  allowSites?: string[];
  /** The unpacked extension to load (default: dist/). The upgrade test loads an earlier build first. */
  extensionDir?: string;
  /** The browser's environment (default: this process's): a person's HOME, which the native host it starts inherits. */
  env?: Record<string, string>;
  /**
   * Loads Steward after Chromium started (CDP Extensions.loadUnpacked, as "Load unpacked" does)
   * instead of with --load-extension: Chrome lets CDP uninstall only what CDP loaded
   * (shared-browser.ts reinstalls Steward between tests).
   */
  loadOverCdp?: boolean;
  /**
   * The browser's UI language (e.g. `vi`), whose catalogue chrome.i18n.getMessage reads: Chromium's
   * --lang. Measured on Debian's headless Chromium 156 under Playwright: --lang=vi switches
   * getMessage to vi, the environment (LANGUAGE=vi, LANG=vi_VN.UTF-8) does not, and
   * getUILanguage() and navigator.language stay en-US either way.
   */
  uiLanguage?: string;
}

export interface StewardBrowser {
  context: BrowserContext;
  serviceWorker: Worker;
  extensionId: string;
  close(): Promise<void>;
}

/** Debian's Chromium with the built extension loaded, in the given profile directory. */
export async function launchInProfile(profile: string, options: LaunchOptions): Promise<Omit<StewardBrowser, 'close'>> {
  const dir = options.extensionDir ?? DIST;
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    ...(options.env ? { env: options.env } : {}),
    args: [
      ...CHROMIUM_FLAGS,
      EXTENSION_ACTION_FLAG,
      ...(options.nativeWebMcp ? [NATIVE_WEBMCP_FLAG] : []),
      ...(options.uiLanguage ? [`--lang=${options.uiLanguage}`] : []),
      // Chrome also loads what --disable-extensions-except names: loaded over CDP as well, Steward would
      // start twice, and the first worker (replaced, yet running) answers messages with "No SW" errors.
      ...(options.loadOverCdp ? [] : [`--disable-extensions-except=${dir}`, `--load-extension=${dir}`]),
    ],
    // Playwright passes --disable-extensions, which CDP's Extensions.loadUnpacked would then refuse.
    ...(options.loadOverCdp ? { ignoreDefaultArgs: ['--disable-extensions'] } : {}),
  });
  try {
    const serviceWorker = options.loadOverCdp ? await loadUnpacked(context, dir) : (context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker')));
    const extensionId = new URL(serviceWorker.url()).host;
    if (options.allowSites?.length) await allowSites({ context, serviceWorker, extensionId }, options.allowSites);
    return { context, serviceWorker, extensionId };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Loads the unpacked extension in `dir` into the running browser (CDP Extensions.loadUnpacked, the
 * path chrome://extensions' "Load unpacked" takes) and resolves with its new service worker.
 */
export async function loadUnpacked(context: BrowserContext, dir: string): Promise<Worker> {
  const before = new Set(context.serviceWorkers());
  let id: string | undefined;
  const isNew = (w: Worker) => !before.has(w) && (id === undefined || new URL(w.url()).host === id);
  const started = context.waitForEvent('serviceworker', { predicate: isNew, timeout: 15_000 });
  // Settled either way: when the worker is already listed, nobody awaits this wait any more.
  started.catch(() => undefined);
  const cdp = await browserCdp(context);
  try {
    ({ id } = await cdp.send('Extensions.loadUnpacked', { path: dir }));
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  return context.serviceWorkers().find(isNew) ?? (await started);
}

/** A CDP session with the browser itself (Playwright's pipe, where the Extensions domain answers). */
export function browserCdp(context: BrowserContext) {
  const browser = context.browser();
  if (!browser) throw new Error('no browser session behind this context');
  return browser.newBrowserCDPSession();
}

/**
 * Debian's Chromium with the built extension loaded, in a fresh profile. A browser that dies while
 * starting (it happened once in ~400 CI launches: the context closed under the first wait for
 * Steward's worker) is launched once more in another fresh profile, and said so on stderr; a test's
 * own assertions never get a second try.
 */
export async function launchWithSteward(options: LaunchOptions): Promise<StewardBrowser> {
  try {
    return await launchFresh(options);
  } catch (error) {
    if (!/has been closed|crashed/i.test(String(error))) throw error;
    console.error(`[e2e] Chromium closed while starting (${String(error).split('\n')[0]}); launching again in a fresh profile`);
    return launchFresh(options);
  }
}

async function launchFresh(options: LaunchOptions): Promise<StewardBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'steward-e2e-'));
  let launched: Omit<StewardBrowser, 'close'>;
  try {
    launched = await launchInProfile(profile, options);
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const { context, serviceWorker, extensionId } = launched;
  return {
    context,
    serviceWorker,
    extensionId,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

type Steward = Pick<StewardBrowser, 'context' | 'serviceWorker' | 'extensionId'>;
type InChrome = Pick<StewardBrowser, 'context' | 'extensionId'>;

/**
 * Browsers whose extension settings a test changed (a grant or a revocation in chrome://extensions):
 * that choice is Chrome's, outside what Steward keeps, so only a reinstall takes it back (shared-browser.ts).
 */
export const settingsChanged = new WeakSet<BrowserContext>();

const patternsOf = (urls: string[]) => [...new Set(urls.map((u) => `${new URL(u).origin}/*`))];

/**
 * What a person does in chrome://extensions → Steward → Site access → "On specific sites" → Add:
 * chrome.developerPrivate.addHostPermission, the call behind that dialog. Chrome records the
 * person's grant; it does not yet hand it to Steward (the host access is optional), but from now
 * on Chrome gives it without a prompt when Steward asks (chrome.permissions.request).
 */
export async function grantInChromeSettings(steward: InChrome, urls: string[], options: { after?: Promise<unknown> } = {}): Promise<void> {
  settingsChanged.add(steward.context);
  const settings = await steward.context.newPage();
  try {
    await settings.goto('chrome://extensions', { waitUntil: 'commit' }); // its API is there at once; the page itself is not needed
    // The page loads meanwhile; the grant waits for what it must come after.
    await options.after;
    await settings.evaluate(
      async ({ id, patterns }) => {
        const developer = (chrome as unknown as { developerPrivate: { addHostPermission(id: string, host: string): Promise<void> } }).developerPrivate;
        // At once: one after another takes seconds.
        await Promise.all(patterns.map((pattern) => developer.addHostPermission(id, pattern)));
      },
      { id: steward.extensionId, patterns: patternsOf(urls) },
    );
  } finally {
    await settings.close();
  }
}

/** Takes Steward's access to the sites back, as the person does in chrome://extensions (developerPrivate.removeHostPermission). */
export async function revokeInChromeSettings(steward: InChrome, urls: string[]): Promise<void> {
  settingsChanged.add(steward.context);
  const settings = await steward.context.newPage();
  try {
    await settings.goto('chrome://extensions', { waitUntil: 'commit' }); // its API is there at once; the page itself is not needed
    await settings.evaluate(
      async ({ id, patterns }) => {
        const developer = (chrome as unknown as { developerPrivate: { removeHostPermission(id: string, host: string): Promise<void> } }).developerPrivate;
        await Promise.all(patterns.map((pattern) => developer.removeHostPermission(id, pattern)));
      },
      { id: steward.extensionId, patterns: patternsOf(urls) },
    );
  } finally {
    await settings.close();
  }
}

/** Which of these sites' origins Chrome gives Steward now (chrome.permissions.getAll, in the worker). */
export const grantedOrigins = (serviceWorker: Worker): Promise<string[]> => serviceWorker.evaluate(async () => (await chrome.permissions.getAll()).origins ?? []);

/**
 * Chrome's real grant of these origins to Steward, as a person who allowed them earlier left it:
 * granted in chrome://extensions, then asked for by Steward itself (chrome.permissions.request)
 * from `extensionPage`, one of its own pages, in a click (Playwright evaluates with a user
 * gesture); Chrome answers without a prompt what the person already granted.
 */
export async function grantHostAccess(extensionPage: Page, urls: string[]): Promise<void> {
  await grantInChromeSettings({ context: extensionPage.context(), extensionId: new URL(extensionPage.url()).host }, urls);
  await askForGranted(extensionPage, urls);
}

/** Steward's own chrome.permissions.request for sites already granted in chrome://extensions (no prompt then). */
async function askForGranted(extensionPage: Page, urls: string[]): Promise<void> {
  const patterns = patternsOf(urls);
  const granted = await extensionPage.evaluate((origins) => chrome.permissions.request({ origins }), patterns);
  if (!granted) throw new Error(`Chrome did not grant Steward ${patterns.join(', ')}`);
}

/** `grantHostAccess` from a side panel page opened for the purpose (and closed again). */
export async function grantHosts(steward: InChrome, urls: string[], options: { grantedInSettings?: boolean } = {}): Promise<void> {
  if (!options.grantedInSettings) await grantInChromeSettings(steward, urls);
  const panel = await openOwnPage(steward);
  try {
    await askForGranted(panel, urls);
  } finally {
    await panel.close();
  }
}

/**
 * Puts sites on Steward's list the way a person who allowed them earlier left things: Steward's
 * stored list, then Chrome's real grant (`grantInChromeSettings`, then Steward's own request from
 * one of its pages, as `grantHosts` does: listed first, so that page sees sites already chosen, as
 * a later panel does). Waits until the service worker has registered its page scripts for them:
 * pages opened afterwards are observed from document_start. The two pages open while Chrome
 * answers the policy read: opening pages, not the grants, is what takes time.
 */
export async function allowSites(steward: Steward, urls: string[]): Promise<void> {
  const origins = [...new Set(urls.map((u) => new URL(u).origin))];
  const listed = steward.serviceWorker.evaluate(async (wanted) => {
    // The grants below are ones the person made before this start. Made while Chrome is still
    // loading the extension's managed policy, a grant leaves that read, and every later one,
    // unanswered for the rest of the session (Chromium 156; measured: still pending 20 s on), and
    // Steward then waits its bound (managed-policy.ts) before it reads any site: so the grants
    // come once Chrome has answered.
    await chrome.storage.managed.get();
    const key = 'steward.sites';
    const stored = ((await chrome.storage.local.get(key))[key] as { allowed?: string[] } | undefined)?.allowed ?? [];
    await chrome.storage.local.set({ [key]: { allowed: [...new Set([...stored, ...wanted])] } });
  }, origins);
  listed.catch(() => undefined); // heard below, through `after`
  // Steward's page loads once the sites are listed (so it sees them chosen, as a later panel does), while Chrome records the grants.
  const ownPage = openOwnPage(steward, listed);
  ownPage.catch(() => undefined); // heard below
  try {
    await grantInChromeSettings(steward, urls, { after: listed });
    await askForGranted(await ownPage, urls);
  } finally {
    await (await ownPage.catch(() => undefined))?.close();
  }
  await pageScriptsRegistered(steward.serviceWorker, origins);
}

/** Waits until Steward has registered its two page scripts for these origins: pages opened afterwards are observed from document_start. */
export async function pageScriptsRegistered(serviceWorker: Worker, origins: string[]): Promise<void> {
  await serviceWorker.evaluate(async (wanted) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const scripts = await chrome.scripting.getRegisteredContentScripts();
      const matched = new Set(scripts.flatMap((s) => s.matches ?? []));
      if (scripts.length === 2 && wanted.every((o) => matched.has(`${o}/*`))) return;
      if (Date.now() > deadline) throw new Error(`Steward did not register its page scripts for ${wanted.join(', ')}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }, origins);
}

/** One of Steward's pages, for its chrome.permissions calls: only Steward's origin is needed, not the panel's app. */
async function openOwnPage(steward: InChrome, after?: Promise<unknown>): Promise<Page> {
  const page = await steward.context.newPage();
  await after?.catch(() => undefined);
  await page.goto(`chrome-extension://${steward.extensionId}/src/sidepanel/index.html`, { waitUntil: 'commit' });
  return page;
}

/**
 * The person clicks Steward's toolbar button while `page` is showing: Chrome runs Steward's action
 * there (CDP Extensions.triggerAction runs the toolbar button's own code path), which grants
 * activeTab for that tab and opens the side panel.
 */
export async function clickStewardButton(steward: Steward, page: Page): Promise<void> {
  await page.bringToFront();
  const browser = steward.context.browser();
  if (!browser) throw new Error('no browser session to press the toolbar button with');
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets', { filter: [{ type: 'tab' }] })) as { targetInfos: Array<{ targetId: string; url: string }> };
    const tab = targetInfos.find((t) => t.url === page.url());
    if (!tab) throw new Error(`no tab target shows ${page.url()}`);
    await cdp.send('Extensions.triggerAction' as never, { id: steward.extensionId, targetId: tab.targetId } as never);
  } finally {
    await cdp.detach();
  }
}

/** A tab the person opens with Ctrl+T: it starts on the browser's New Tab page (CDP Target.createTarget), as a person's typed navigation does. */
export async function openNewTabPage(steward: Pick<StewardBrowser, 'context'>): Promise<Page> {
  const browser = steward.context.browser();
  if (!browser) throw new Error('no browser session to open a tab with');
  const cdp = await browser.newBrowserCDPSession();
  try {
    const opened = steward.context.waitForEvent('page');
    await cdp.send('Target.createTarget', { url: 'chrome://newtab/' });
    return await opened;
  } finally {
    await cdp.detach();
  }
}

/** The address every open tab shows, as the browser itself reports them (CDP targets: Steward may not see them all). */
export async function tabUrls(steward: Pick<StewardBrowser, 'context'>): Promise<string[]> {
  const browser = steward.context.browser();
  if (!browser) throw new Error('no browser session to list the tabs with');
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets', { filter: [{ type: 'tab' }] })) as { targetInfos: Array<{ url: string }> };
    return targetInfos.map((t) => t.url);
  } finally {
    await cdp.detach();
  }
}

/**
 * The id of the tab showing `page`, also on a site Steward has no access to (Chrome then hides
 * the tab's address from Steward): the tab with the page's address, else the newest tab whose
 * address is hidden. Call it right after opening the page (tab ids only grow).
 */
export async function tabIdOfAnyPage(serviceWorker: Worker, page: Page): Promise<number> {
  const id = await serviceWorker.evaluate(async (url) => {
    const tabs = await chrome.tabs.query({});
    const shown = tabs.find((t) => t.url === url);
    if (shown) return shown.id;
    const hidden = tabs.filter((t) => t.url === undefined && t.id !== undefined).map((t) => t.id!);
    return hidden.length > 0 ? Math.max(...hidden) : undefined;
  }, page.url());
  if (id === undefined) throw new Error(`no tab shows ${page.url()}`);
  return id;
}
