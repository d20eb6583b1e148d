import { combinedScope, commonOrigins, fenceRules, hostsOf, newTabRules, openedSince, pageCouldOpen, type FenceRule } from './fence-rules.ts';

/**
 * Keeps the navigations an agent's step causes on the agent's allowed sites: from before the step
 * starts (nav.goto, steward_open, a click that may follow a link, submit a form or open a new tab)
 * until its navigation has settled. declarativeNetRequest is what can stop a request before it
 * reaches the other origin: webNavigation.onBeforeNavigate (or onCreatedNavigationTarget) only
 * tells, when the request is already on its way; blocking webRequest is not available to MV3
 * extensions; and a redirect hop is a new request Chrome checks against the rules before sending it.
 *
 * Three layers, all session rules (fence-rules.ts):
 * - the agent's tab (tabIds): every top-level navigation in it, whoever starts it;
 * - every tab opened while the step runs (excludedTabIds: the tabs open when it started), for
 *   navigations started by a page on the agent's sites: a pop-up, a target="_blank" link or form
 *   is fenced from its first request, with no race against Chrome telling Steward of the new tab;
 * - a tab Chrome reports opened from the agent's tab (or from such a tab) is fenced like the
 *   agent's own tab as soon as Chrome says so, for what the second layer cannot see: a later
 *   navigation in it started by a page with no host among the agent's (a sandboxed document has
 *   none). Chrome names as opener the tab that was active, so this holds where the agent acts in
 *   the person's current tab (the co-pilot), not for an agent's background tab.
 * The person's other tabs, and navigations the person starts in a new tab, are never touched.
 */

interface HeldFence {
  /** The tabs opened since the step started, but for those the person opened on the browser's own pages (Ctrl+T). */
  opened(): Promise<number[]>;
  release(): Promise<void>;
}

export interface NavigationFence {
  /** Fences `tabId`, and the tabs opened while the step runs, to `origins` until released. */
  hold(tabId: number, origins: readonly string[]): Promise<HeldFence>;
}

/** What fence.ts needs of chrome.declarativeNetRequest (unit tests pass a fake). */
export interface SessionRulesApi {
  updateSessionRules(options: { removeRuleIds?: number[]; addRules?: FenceRule[] }): Promise<void>;
  getSessionRules(): Promise<Array<{ id: number }>>;
}

interface TabInfo {
  id?: number;
  openerTabId?: number;
  url?: string;
  pendingUrl?: string;
}

/** What fence.ts needs of chrome.tabs (unit tests pass a fake). */
export interface FenceTabs {
  query(): Promise<TabInfo[]>;
  onCreated: { addListener(listener: (tab: TabInfo) => void): void };
}

interface Step {
  tabId: number;
  origins: string[];
  /** Tabs open when it started. */
  existing: number[];
  initiators: string[];
  /** Its tab and the tabs Chrome reported opened from them. */
  family: Set<number>;
}

export function navigationFence(api: SessionRulesApi, tabs: FenceTabs): NavigationFence {
  const steps = new Map<number, Step>();
  const tabRuleIds = new Map<number, number[]>();
  let newTabRuleIds: number[] = [];
  /** Tabs opened while a step ran that start on a page no web page can open: the person's. */
  const theirs = new Set<number>();
  let nextRuleId = 1;
  let nextStep = 1;
  // Rule changes run one at a time, so two steps never install over each other's ids.
  let queue: Promise<unknown> = cleared();

  /** Session rules outlive a worker restart; a step that was running then is over, so its fence is stale. */
  async function cleared(): Promise<void> {
    const stale = await api.getSessionRules();
    if (stale.length > 0) await api.updateSessionRules({ removeRuleIds: stale.map((r) => r.id) });
  }

  const serial = <T>(job: () => Promise<T>): Promise<T> => {
    const run = queue.then(job, job);
    queue = run.catch(() => undefined);
    return run;
  };

  /** Reinstalls, in one update, the rules of `tabIds` and of new tabs, from the steps running now. */
  async function sync(tabIds: readonly number[]): Promise<void> {
    const removeRuleIds = [...newTabRuleIds, ...tabIds.flatMap((id) => tabRuleIds.get(id) ?? [])];
    const addRules: FenceRule[] = [];
    const installed = new Map<number, number[]>();
    for (const tabId of tabIds) {
      const holders = [...steps.values()].filter((s) => s.family.has(tabId));
      if (holders.length === 0) continue;
      const rules = fenceRules(tabId, commonOrigins(holders.map((s) => s.origins)), nextRuleId);
      nextRuleId += rules.length;
      addRules.push(...rules);
      installed.set(
        tabId,
        rules.map((r) => r.id),
      );
    }
    const newTabs = steps.size > 0 ? newTabRules(combinedScope([...steps.values()]), nextRuleId) : [];
    nextRuleId += newTabs.length;
    addRules.push(...newTabs);
    await api.updateSessionRules({ removeRuleIds, addRules });
    for (const tabId of tabIds) {
      const ids = installed.get(tabId);
      if (ids) tabRuleIds.set(tabId, ids);
      else tabRuleIds.delete(tabId);
    }
    newTabRuleIds = newTabs.map((r) => r.id);
    if (steps.size === 0) theirs.clear();
  }

  tabs.onCreated.addListener((tab) => {
    const id = tab.id;
    if (steps.size === 0 || id === undefined) return;
    if (!pageCouldOpen(tab.pendingUrl || tab.url)) {
      theirs.add(id);
      return;
    }
    const opener = tab.openerTabId;
    const adopters = [...steps.values()].filter((s) => opener !== undefined && s.family.has(opener));
    if (adopters.length === 0) return;
    for (const s of adopters) s.family.add(id);
    // A failure here leaves the new tab under the new-tab rules only; the step still reports it.
    serial(() => sync([id])).catch(() => undefined);
  });

  return {
    async hold(tabId, origins) {
      const key = nextStep++;
      let step: Step | undefined;
      await serial(async () => {
        const open = await tabs.query();
        const own = open.find((t) => t.id === tabId);
        step = {
          tabId,
          origins: [...origins],
          existing: open.flatMap((t) => (t.id === undefined ? [] : [t.id])),
          initiators: hostsOf([...origins, own?.url || own?.pendingUrl]),
          family: new Set([tabId]),
        };
        steps.set(key, step);
        try {
          await sync([tabId]);
        } catch (error) {
          // Not fenced: the step must not run, and must not stay counted among the running ones.
          steps.delete(key);
          await sync([tabId]).catch(() => undefined);
          throw error;
        }
      });
      let released = false;
      return {
        // Another running step's own tab (say one steward_open just opened) is that step's to report, not this one's.
        opened: async () => (step ? openedSince(step.existing, await tabs.query(), [...theirs, ...[...steps.values()].map((s) => s.tabId)]) : []),
        async release() {
          if (released) return;
          released = true;
          await serial(async () => {
            const family = [...(steps.get(key)?.family ?? [])];
            steps.delete(key);
            await sync(family);
          });
        },
      };
    },
  };
}
