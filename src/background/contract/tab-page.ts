import { originOf } from '../../base/origin.ts';
import { browser } from '../core/browser.ts';
import type { ObservedTab } from '../ports/tab-observer.ts';
import type { TabPage } from './contract-control.ts';

/**
 * A tab's page for the panel's "what does this site offer": Chrome's URL for the tab, and the
 * contract link its last observation saw, when that observation was of the same site.
 */
export function chromeTabPage(lastObserved: (tabId: number) => ObservedTab | undefined) {
  return async (tabId: number): Promise<TabPage | undefined> => {
    const tab = await browser.tabs.get(tabId).catch(() => undefined);
    const origin = tab?.url ? originOf(tab.url) : undefined;
    if (!tab?.url || origin === undefined) return undefined;
    const seen = lastObserved(tabId)?.snapshot;
    const href = seen && originOf(seen.url) === origin ? seen.contractHref : undefined;
    return { url: tab.url, ...(href ? { contractHref: href } : {}) };
  };
}
