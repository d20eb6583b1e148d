import { ok, refuseSaying, type Reply } from '../../protocol/channel.ts';
import { phrase } from '../../protocol/phrase.ts';
import type { SiteChangeResponse, SitesResponse } from '../../protocol/panel-channel.ts';
import type { TabSiteStatus } from '../../protocol/site-access.ts';
import type { SitesOverview } from '../sites/site-access.ts';

/** What the control room may do with site access (bound to Chrome in src/background/compose.ts). */
export interface SitesControl {
  /** The sites Steward reads (listed and granted by Chrome): what agents may use. */
  list(): Promise<string[]>;
  /** The same, with the listed sites Chrome no longer grants and whether a broad grant remains, for the panel. */
  overview(): Promise<SitesOverview>;
  allow(origin: string): Promise<{ allowed: string[]; tabs: number }>;
  remove(origin: string): Promise<{ allowed: string[]; tabs: number }>;
  tabStatus(tabId: number): Promise<TabSiteStatus>;
}

async function chromeMayRefuse<T>(change: () => Promise<T>): Promise<Reply<T>> {
  try {
    return ok(await change());
  } catch (error) {
    const why = (error as Error).message;
    return refuseSaying(phrase('site_access_refused', { error: why }), 'SITE_ACCESS_FAILED', `Chrome refused the change of site access: ${why}`, true);
  }
}

/** `panel/sites`: the person's list of sites Steward may read, and how the given tab stands. */
export const listSites = (sites: SitesControl, tabId: number | undefined): Promise<Reply<SitesResponse>> =>
  chromeMayRefuse(async () => ({ ...(await sites.overview()), ...(tabId !== undefined ? { tab: await sites.tabStatus(tabId) } : {}) }));

/** `panel/site-allow` and `panel/site-remove`. */
export const changeSite = (sites: SitesControl, change: 'allow' | 'remove', origin: string): Promise<Reply<SiteChangeResponse>> =>
  chromeMayRefuse(() => (change === 'allow' ? sites.allow(origin) : sites.remove(origin)));
