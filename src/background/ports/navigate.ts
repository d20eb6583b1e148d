import type { NavigatePort, PortContext } from '../../pipeline/ports.ts';
import type { SessionTabs } from '../core/sessions.ts';
import { originOf } from '../../base/origin.ts';
import { browser, chromeOnly } from '../core/browser.ts';
import { navigationFence, type FenceTabs, type NavigationFence, type SessionRulesApi } from '../navigation/fence.ts';
import { waitForLoaded, watchTab, type TabEvents } from './tab-wait.ts';

/**
 * Loads a URL in the agent's working tab and waits for it to finish loading, fenced to the agent's
 * origins (navigation/fence.ts): a redirect to another origin is stopped before its request leaves,
 * and reported as LeftAllowedSites. A session whose tab was closed gets a new (background) tab,
 * opened blank so the fence is up before the first request, and bound to the session in memory.
 * Whether the page shows what the caller was after is not decided here: the navigator re-observes.
 */

export interface TabControl extends TabEvents {
  update(tabId: number, props: { url: string }): Promise<unknown>;
  create(props: { url: string; active: boolean }): Promise<{ id?: number }>;
  /**
   * The URL the tab shows (for a navigation the fence stopped, the blocked URL on Chrome's error
   * page); HIDDEN when Chrome keeps the tab's address from Steward (a site Chrome gives it no
   * access to); undefined when there is no such tab.
   */
  urlOf(tabId: number): Promise<string | typeof HIDDEN | undefined>;
  close(tabId: number): Promise<void>;
  /** Whether the tab's page is Chrome's error page (a navigation the fence blocked shows one). */
  showsErrorPage(tabId: number): Promise<boolean>;
  fence: NavigationFence;
}

/** A tab whose address Chrome does not show Steward: it is on a site Steward has no access to. */
export const HIDDEN = Symbol('address hidden');

export const chromeTabControl = (events: TabEvents): TabControl => {
  let fence: NavigationFence | undefined;
  // Made on first use: chrome.declarativeNetRequest is only reached when an agent navigates.
  const lazy = () => (fence ??= navigationFence(chromeOnly.declarativeNetRequest as unknown as SessionRulesApi, chromeFenceTabs()));
  return {
    ...events,
    update: (tabId, props) => browser.tabs.update(tabId, props),
    create: (props) => browser.tabs.create(props),
    urlOf: async (tabId) => {
      const tab = (await browser.tabs.get(tabId).catch(() => undefined)) as { url?: string; pendingUrl?: string } | undefined;
      if (!tab) return undefined;
      return tab.url || tab.pendingUrl || HIDDEN;
    },
    close: (tabId) => browser.tabs.remove(tabId),
    // Chrome refuses to script an error page, and says so: no other way to see one without the webNavigation permission.
    showsErrorPage: (tabId) =>
      browser.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: () => 0 }).then(
        () => false,
        (error: unknown) => /error page/i.test(String(error)),
      ),
    fence: { hold: (tabId, origins) => lazy().hold(tabId, origins) },
  };
};

/** Every tab's id, opener and URL (URLs are seen through Steward's host access, no "tabs" permission). */
const chromeFenceTabs = (): FenceTabs => ({ query: () => browser.tabs.query({}), onCreated: browser.tabs.onCreated });

/**
 * A navigation the fence stopped: the tab was sent towards `origin`, outside the agent's sites.
 * Unnamed when Chrome hides where the tab went (a site Steward has no access to).
 */
export class LeftAllowedSites extends Error {
  constructor(
    readonly origin: string | undefined,
    readonly url: string | undefined,
  ) {
    super(`the navigation was stopped before it reached ${origin ?? 'another site (one Steward has no access to)'}, which is not one of the sites this agent may use`);
    this.name = 'LeftAllowedSites';
  }
}

/**
 * After a fenced navigation: the tab's URL is outside `origins` only when the fence stopped it
 * there. A hidden address counts as outside: the agent's origins are all sites Chrome gives
 * Steward, whose addresses it sees, so a tab it cannot see is on none of them.
 */
export async function checkStayed(tabs: Pick<TabControl, 'urlOf'>, tabId: number, origins: readonly string[]): Promise<void> {
  const url = await tabs.urlOf(tabId);
  if (url === undefined) return;
  if (url === HIDDEN) throw new LeftAllowedSites(undefined, undefined);
  const origin = originOf(url);
  if (origin !== undefined && !origins.includes(origin)) throw new LeftAllowedSites(origin, url);
}

/**
 * Opens `url` in `tabId` (or a new tab) with the fence up until the load settles; the fence's
 * release always runs. Returns the tab; throws LeftAllowedSites when a hop was stopped.
 */
export async function fencedLoad(tabs: TabControl, where: { tabId: number } | { active: boolean }, url: string, origins: readonly string[]): Promise<number> {
  let tabId: number;
  if ('tabId' in where) tabId = where.tabId;
  else {
    const tab = await tabs.create({ url: 'about:blank', active: where.active });
    if (tab.id === undefined) throw new Error('no tab could be opened');
    tabId = tab.id;
    // The blank page's own load must be over, or its "complete" would end the wait below early.
    await waitForLoaded(tabs, tabId);
  }
  const held = await tabs.fence.hold(tabId, origins);
  const watch = watchTab(tabs, tabId);
  try {
    await tabs.update(tabId, { url });
    if (!(await watch.settled(START_MS))) throw new Error(`the tab did not finish loading ${url}`);
    // A pop-up the loaded page opened towards another site was stopped by the fence: only its tab is left to close.
    await closeTabsThatLeft(tabs, await held.opened(), origins);
    await checkStayed(tabs, tabId, origins);
    return tabId;
  } finally {
    watch.dispose();
    await held.release();
  }
}

/**
 * The tabs opened while a fenced step ran, once each has loaded: one that shows Chrome's error page
 * for a URL off the agent's sites is a navigation the fence stopped (the person's own new tabs are
 * not fenced: they load, and are left alone). It is closed, and returned for the step's report.
 */
export async function closeTabsThatLeft(tabs: Pick<TabControl, 'get' | 'urlOf' | 'close' | 'showsErrorPage'>, opened: readonly number[], origins: readonly string[]): Promise<LeftAllowedSites[]> {
  const stopped = await Promise.all(
    opened.map(async (tabId) => {
      await waitForLoaded(tabs, tabId);
      try {
        await checkStayed(tabs, tabId, origins);
        return undefined;
      } catch (error) {
        if (!(error instanceof LeftAllowedSites)) throw error;
        // A tab whose address Chrome hides (a site Steward has no access to) is left alone unless
        // Chrome says it shows its error page: it may be the person's own, and Chrome tells Steward
        // nothing else about it. The fence has stopped its request either way.
        if (!(await tabs.showsErrorPage(tabId))) return undefined;
        await tabs.close(tabId).catch(() => undefined);
        return error;
      }
    }),
  );
  return stopped.filter((left) => left !== undefined);
}

/** A navigation that has not even started after this long is treated as failed. */
const START_MS = 5_000;

export function navigatePort(deps: { sessions: Pick<SessionTabs, 'tabOf' | 'bind'>; tabs: TabControl }): NavigatePort['navigate'] {
  return async (url: string, ctx: PortContext, origins: readonly string[]): Promise<void> => {
    if (!ctx.session_id) throw new Error('the agent has no working session to navigate in');
    const tabId = await deps.sessions.tabOf(ctx.session_id);
    if (tabId !== undefined) {
      await fencedLoad(deps.tabs, { tabId }, url, origins);
      return;
    }
    const blank = await deps.tabs.create({ url: 'about:blank', active: false });
    if (blank.id === undefined) throw new Error('no tab could be opened');
    await deps.sessions.bind(ctx.session_id, ctx.agent_id, blank.id);
    await waitForLoaded(deps.tabs, blank.id);
    await fencedLoad(deps.tabs, { tabId: blank.id }, url, origins);
  };
}
