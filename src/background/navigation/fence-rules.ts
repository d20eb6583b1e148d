/**
 * The declarativeNetRequest session rules that keep top-level navigations on a set of origins:
 * every main-frame request in scope is blocked, except those whose URL starts with one of the
 * origins followed by `/`. Chrome applies them to every request of a navigation, each redirect hop
 * included, before the request leaves the browser, so a hop to another origin is cancelled
 * (ERR_BLOCKED_BY_CLIENT) with nothing sent to it. Pure: the adapter (fence.ts) installs them.
 *
 * The anchored prefix `|http://localhost:4100/` is origin-exact: `http://localhost:41000/` and
 * `http://localhost:4100@evil.example/` do not start with it. Sub-frames are not fenced: a page's
 * own embeds from other origins are its business, not a navigation of the agent's.
 *
 * Two scopes. A tab an agent acts in (`tabIds`). And every tab that did not exist when the step
 * started (`excludedTabIds`: a tab opened by the step's click — a target="_blank" link, a
 * window.open, a form posting to a new window — is fenced before its first request, as is any tab
 * Chrome gives no id), for navigations a page on the agent's sites started (`initiatorDomains`):
 * the person typing an address or opening a bookmark in a new tab starts a navigation with no
 * initiator, which never matches, so the person's own browsing is not fenced. initiatorDomains
 * compares hosts only (any port, any scheme, sub-domains too), so it matches a superset of the
 * agent's origins as initiators: it can fence more navigations than the agent's, never fewer, and
 * what it lets through is still decided by the origin-exact allow rules.
 */

type Scope = { tabIds: number[] } | { excludedTabIds?: number[]; initiatorDomains?: string[] };

export interface FenceRule {
  id: number;
  priority: number;
  action: { type: 'block' | 'allow' };
  condition: Scope & { resourceTypes: ['main_frame']; urlFilter?: string };
}

/** One block rule for the scope and one allow rule (higher priority: it wins) per origin. */
function scopedRules(scope: Scope, origins: readonly string[], firstId: number): FenceRule[] {
  const block: FenceRule = { id: firstId, priority: 1, action: { type: 'block' }, condition: { ...scope, resourceTypes: ['main_frame'] } };
  const allows = [...new Set(origins)].map((origin, i): FenceRule => ({
    id: firstId + 1 + i,
    priority: 2,
    action: { type: 'allow' },
    condition: { ...scope, resourceTypes: ['main_frame'], urlFilter: `|${origin}/` },
  }));
  return [block, ...allows];
}

/** Rules for `tabId`, with ids from `firstId` up (one block rule, one allow rule per origin). */
export function fenceRules(tabId: number, origins: readonly string[], firstId: number): FenceRule[] {
  return scopedRules({ tabIds: [tabId] }, origins, firstId);
}

/** What the running steps ask of tabs opened while they run. */
export interface NewTabScope {
  /** Tabs that existed before every running step started: never touched by these rules. */
  exceptTabIds: number[];
  /** Hosts whose pages' navigations in a new tab are fenced (the agents' sites and their tabs'). */
  initiators: string[];
  /** Where those navigations may go. */
  origins: string[];
}

/**
 * Rules for navigations in tabs opened while steps run. With no initiator host known, every
 * navigation in a new tab is fenced (more careful, never less).
 */
export function newTabRules(scope: NewTabScope, firstId: number): FenceRule[] {
  const except = [...new Set(scope.exceptTabIds)].sort((a, b) => a - b);
  const hosts = [...new Set(scope.initiators)].sort();
  return scopedRules({ ...(except.length ? { excludedTabIds: except } : {}), ...(hosts.length ? { initiatorDomains: hosts } : {}) }, scope.origins, firstId);
}

/** One running step: its origins, the tabs open when it started, the hosts its navigations come from. */
export interface StepScope {
  origins: readonly string[];
  existing: readonly number[];
  initiators: readonly string[];
}

/**
 * The scope of several running steps together: a tab is left alone only if it predates all of
 * them, navigations from any of their hosts are fenced, and go only where every one of them may go.
 */
export function combinedScope(steps: readonly StepScope[]): NewTabScope {
  const [first, ...rest] = steps;
  return {
    exceptTabIds: (first?.existing ?? []).filter((id) => rest.every((s) => s.existing.includes(id))),
    initiators: [...new Set(steps.flatMap((s) => s.initiators))],
    origins: commonOrigins(steps.map((s) => s.origins)),
  };
}

/** The hosts of the http(s) URLs, as initiatorDomains wants them (lower case, punycode, no port). */
export function hostsOf(urls: ReadonlyArray<string | undefined>): string[] {
  const hosts = new Set<string>();
  for (const url of urls) {
    try {
      const u = new URL(url ?? '');
      if (u.protocol === 'http:' || u.protocol === 'https:') hosts.add(u.hostname);
    } catch {
      // not a URL: no host
    }
  }
  return [...hosts];
}

/** The origins every holder of a fence allows: two agents' steps in one tab get only what both may reach. */
export function commonOrigins(holders: ReadonlyArray<readonly string[]>): string[] {
  const [first, ...rest] = holders;
  return (first ?? []).filter((o) => rest.every((h) => h.includes(o)));
}

/**
 * Whether a page can have opened a tab that starts at `url`. The browser's own pages (the new-tab
 * page of Ctrl+T, settings, extensions' pages) cannot be opened by a web page: such a tab is the
 * person's (or an extension's), even when Chrome names the agent's tab as its opener.
 */
export function pageCouldOpen(url: string | undefined): boolean {
  if (!url) return true;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || ['http', 'https', 'about', 'blob', 'data', 'javascript'].includes(scheme);
}

/**
 * The tabs opened since a step started, leaving out `theirs` (tabs known to be the person's).
 * Chrome's openerTabId cannot say which of them the step opened: for a pop-up it names the tab
 * that was active when the pop-up was added to the tab strip, which for an agent acting in a
 * background tab is the person's. Which of these the fence stopped is for the caller to see.
 */
export function openedSince(existing: readonly number[], open: ReadonlyArray<{ id?: number }>, theirs: readonly number[] = []): number[] {
  return open.flatMap((t) => (t.id !== undefined && !existing.includes(t.id) && !theirs.includes(t.id) ? [t.id] : []));
}
