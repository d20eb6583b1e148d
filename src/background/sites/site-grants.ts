/**
 * Steward's list of sites against Chrome's host permissions. Steward asks Chrome for one origin
 * at a time when the person allows a site (optional_host_permissions in the manifest), and the
 * person can take that access back in chrome://extensions without telling Steward. So a site is
 * read only when both hold: it is on the person's list and Chrome grants it. A listed site Chrome
 * does not grant waits for the person's click (the side panel asks Chrome again). Pure.
 */
export interface SiteStanding {
  /** On the list and granted: Steward's page scripts run there and agents may act there. */
  allowed: string[];
  /**
   * On the list, not granted: the person removed Steward's access in chrome://extensions, or this
   * version of Steward was never given it. Nothing is read there until the person allows it again.
   */
  waiting: string[];
}

export function siteStanding(listed: readonly string[], granted: ReadonlySet<string>): SiteStanding {
  const sorted = [...new Set(listed)].sort();
  return { allowed: sorted.filter((o) => granted.has(o)), waiting: sorted.filter((o) => !granted.has(o)) };
}

/** Sites read before and not now: their open pages' reports are forgotten. */
export function lostSites(before: readonly string[], after: readonly string[]): string[] {
  const now = new Set(after);
  return before.filter((o) => !now.has(o));
}

/**
 * Host patterns that open every http or https site at once. Steward never asks for them; Chrome
 * keeps them for a person who installed a version that asked for `<all_urls>` at install (the
 * grant carries over to the optional http/https patterns). Steward still reads only listed sites.
 */
export function broadPatterns(patterns: readonly string[]): string[] {
  return patterns.filter((p) => p === '<all_urls>' || /^(\*|https?):\/\/\*\//.test(p));
}
