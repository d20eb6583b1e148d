import { z } from 'zod';
import { Origin } from './primitives.ts';

/**
 * Which sites Steward may observe and act on. Steward's content scripts are registered only for
 * these origins (chrome.scripting, src/background/sites/site-access.ts); on any other site Steward
 * reads nothing. Kept in chrome.storage.local under `SITES_KEY`, changed only by the service
 * worker on the side panel's request.
 */
export const SITES_KEY = 'steward.sites';
const MAX_ALLOWED_SITES = 500;

export const SiteAccessRecord = z.object({
  allowed: z.array(Origin).max(MAX_ALLOWED_SITES),
});
export type SiteAccessRecord = z.infer<typeof SiteAccessRecord>;

/** Whatever is stored (nothing, garbage, an older shape) → a valid record; bad entries are dropped, not the list. */
export function readSiteAccess(raw: unknown): SiteAccessRecord {
  const list = typeof raw === 'object' && raw !== null && Array.isArray((raw as { allowed?: unknown }).allowed) ? (raw as { allowed: unknown[] }).allowed : [];
  const allowed = [...new Set(list.filter((o): o is string => Origin.safeParse(o).success))].slice(0, MAX_ALLOWED_SITES);
  return { allowed };
}

/**
 * The host access Steward may ask Chrome for (the manifest's optional_host_permissions): any http
 * or https site, one origin at a time, when the person allows it. Asked for together they are also
 * what Chrome carries over from a version that had `<all_urls>` at install.
 */
export const SITE_HOST_PATTERNS = ['http://*/*', 'https://*/*'];

/** The match pattern for one origin, ports included: `http://127.0.0.1:4100/*`. */
export const originPattern = (origin: string): string => `${origin}/*`;

/** How one tab stands, for the side panel. */
export const TabSiteStatus = z.object({
  tabId: z.number().int(),
  /**
   * Absent where Chrome hides the tab's address from Steward: browser pages (chrome://, the Web
   * Store, a new tab), and any site Chrome gives Steward no access to, unless the person clicked
   * Steward's toolbar button on this tab (activeTab shows Steward this tab until it leaves the site).
   */
  origin: Origin.optional(),
  title: z.string().max(2000).optional(),
  /** In Steward's list of allowed sites, and Chrome grants it: Steward reads it. */
  allowed: z.boolean(),
  /** In Steward's list, but Chrome no longer grants it: the person allows it again (Chrome asks). */
  waiting: z.literal(true).optional(),
  /** The organisation's policy keeps Steward off this site: it blocks it, or allows only sites it lists and this is not one. */
  policy: z.enum(['blocked', 'not_allowed']).optional(),
  /** Steward's page script answers in this tab right now. */
  observing: z.boolean(),
});
export type TabSiteStatus = z.infer<typeof TabSiteStatus>;
