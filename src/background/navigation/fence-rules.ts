/**
 * The declarativeNetRequest session rules that keep one tab's top-level navigations on a set of
 * origins: every main-frame request in the tab is blocked, except those whose URL starts with one
 * of the origins followed by `/`. Chrome applies them to every request of a navigation, each
 * redirect hop included, before the request leaves the browser, so a hop to another origin is
 * cancelled (ERR_BLOCKED_BY_CLIENT) with nothing sent to it. Pure: the adapter (fence.ts) installs them.
 *
 * The anchored prefix `|http://localhost:4100/` is origin-exact: `http://localhost:41000/` and
 * `http://localhost:4100@evil.example/` do not start with it. Sub-frames are not fenced: a page's
 * own embeds from other origins are its business, not a navigation of the agent's.
 */

export interface FenceRule {
  id: number;
  priority: number;
  action: { type: 'block' | 'allow' };
  condition: { tabIds: number[]; resourceTypes: ['main_frame']; urlFilter?: string };
}

/** Rules for `tabId`, with ids from `firstId` up (one block rule, one allow rule per origin). */
export function fenceRules(tabId: number, origins: readonly string[], firstId: number): FenceRule[] {
  const block: FenceRule = { id: firstId, priority: 1, action: { type: 'block' }, condition: { tabIds: [tabId], resourceTypes: ['main_frame'] } };
  const allows = [...new Set(origins)].map((origin, i): FenceRule => ({
    id: firstId + 1 + i,
    priority: 2,
    action: { type: 'allow' },
    condition: { tabIds: [tabId], resourceTypes: ['main_frame'], urlFilter: `|${origin}/` },
  }));
  return [block, ...allows];
}

/** The origins every holder of a fence allows: two agents' steps in one tab get only what both may reach. */
export function commonOrigins(holders: ReadonlyArray<readonly string[]>): string[] {
  const [first, ...rest] = holders;
  return (first ?? []).filter((o) => rest.every((h) => h.includes(o)));
}
