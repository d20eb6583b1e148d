import type { z } from 'zod';
import type { PanelSiteAllow, PanelSiteRemove, PanelSites, TabSiteStatus } from '../../protocol/site-access.ts';
import { ok, refuse, type ControlReply } from './reply.ts';

/** What the control room may do with site access (bound to Chrome in service-worker.ts). */
export interface SitesControl {
  list(): Promise<string[]>;
  allow(origin: string): Promise<{ allowed: string[]; tabs: number }>;
  remove(origin: string): Promise<{ allowed: string[]; tabs: number }>;
  tabStatus(tabId: number): Promise<TabSiteStatus>;
}

/** `panel/sites`, `panel/site-allow`, `panel/site-remove`: the person's list of sites Steward may read. */
export async function sitesReply(
  sites: SitesControl,
  m: z.infer<typeof PanelSites> | z.infer<typeof PanelSiteAllow> | z.infer<typeof PanelSiteRemove>,
): Promise<ControlReply> {
  try {
    switch (m.type) {
      case 'panel/sites':
        return ok({ allowed: await sites.list(), ...(m.tabId !== undefined ? { tab: await sites.tabStatus(m.tabId) } : {}) });
      case 'panel/site-allow':
        return ok(await sites.allow(m.origin));
      case 'panel/site-remove':
        return ok(await sites.remove(m.origin));
    }
  } catch (error) {
    return refuse('SITE_ACCESS_FAILED', `Chrome refused the change of site access: ${(error as Error).message}`, true);
  }
}
