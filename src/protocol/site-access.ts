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

/** The match pattern for one origin, ports included: `http://127.0.0.1:4100/*`. */
export const originPattern = (origin: string): string => `${origin}/*`;

/** How one tab stands, for the side panel. */
export const TabSiteStatus = z.object({
  tabId: z.number().int(),
  /**
   * Absent on pages Steward may not read at all: browser pages (chrome://, the Web Store, a new
   * tab) and sites Chrome's own site access keeps Steward out of (Chrome hides their address).
   */
  origin: Origin.optional(),
  title: z.string().max(2000).optional(),
  /** In Steward's list of allowed sites. */
  allowed: z.boolean(),
  /** Steward's page script answers in this tab right now. */
  observing: z.boolean(),
});
export type TabSiteStatus = z.infer<typeof TabSiteStatus>;
