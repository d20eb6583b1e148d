import type { SitesControl } from '../../../../src/background/panel/sites.ts';

/** Site access held in memory, as the service worker's SiteAccess keeps it (no Chrome). */
export function fakeSites(initial: string[] = []): SitesControl & { allowed: Set<string> } {
  const allowed = new Set(initial);
  const list = async () => [...allowed].sort();
  return {
    allowed,
    list,
    overview: async () => ({ allowed: await list(), waiting: [], refused_by_policy: [], broad: false }),
    allow: async (origin) => (allowed.add(origin), { allowed: await list(), tabs: 0 }),
    remove: async (origin) => (allowed.delete(origin), { allowed: await list(), tabs: 0 }),
    tabStatus: async (tabId) => ({ tabId, allowed: false, observing: false }),
  };
}
