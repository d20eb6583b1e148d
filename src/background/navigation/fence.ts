import { commonOrigins, fenceRules, type FenceRule } from './fence-rules.ts';

/**
 * Keeps a tab's navigations on an agent's allowed sites while the agent acts in it: from before
 * its step starts (nav.goto, steward_open, a click that may follow a link or submit a form) until
 * the step's navigation has settled. declarativeNetRequest is what can stop a request before it
 * reaches the other origin: webNavigation.onBeforeNavigate only tells (the request is already on
 * its way when a listener could react), blocking webRequest is not available to MV3 extensions,
 * and a redirect hop is a new request Chrome checks against the rules before sending it. The rules
 * are session rules scoped to the tab (tabIds), so the person's other tabs are never touched; the
 * person's own navigations in the tab are only fenced while an agent's step runs there.
 */

export interface NavigationFence {
  /** Fences `tabId` to `origins` until the returned release is called. */
  hold(tabId: number, origins: readonly string[]): Promise<() => Promise<void>>;
}

/** What fence.ts needs of chrome.declarativeNetRequest (unit tests pass a fake). */
export interface SessionRulesApi {
  updateSessionRules(options: { removeRuleIds?: number[]; addRules?: FenceRule[] }): Promise<void>;
  getSessionRules(): Promise<Array<{ id: number }>>;
}

export function navigationFence(api: SessionRulesApi): NavigationFence {
  const tabs = new Map<number, { holders: Map<number, readonly string[]>; ruleIds: number[] }>();
  let nextRuleId = 1;
  let nextHolder = 1;
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

  async function apply(tabId: number): Promise<void> {
    const entry = tabs.get(tabId);
    if (!entry) return;
    const addRules = entry.holders.size > 0 ? fenceRules(tabId, commonOrigins([...entry.holders.values()]), nextRuleId) : [];
    nextRuleId += addRules.length;
    await api.updateSessionRules({ removeRuleIds: entry.ruleIds, addRules });
    entry.ruleIds = addRules.map((r) => r.id);
    if (entry.holders.size === 0) tabs.delete(tabId);
  }

  return {
    async hold(tabId, origins) {
      const holder = nextHolder++;
      await serial(async () => {
        const entry = tabs.get(tabId) ?? { holders: new Map(), ruleIds: [] };
        tabs.set(tabId, entry);
        entry.holders.set(holder, [...origins]);
        await apply(tabId);
      });
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await serial(async () => {
          tabs.get(tabId)?.holders.delete(holder);
          await apply(tabId);
        });
      };
    },
  };
}
