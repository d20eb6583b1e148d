import type { SiteName } from './site.ts';

/** The order the README's co-pilot demo cancels, and the goal the person types for it. */
const DEMO_ORDER = 'ORD-1024';
export const DEMO_GOAL = `cancel order ${DEMO_ORDER}`;

/**
 * The tabs `npm start` opens, in order: the shop on the demo's order first (the README's goal is
 * typed with the panel on that tab; the demo model cancels an order from its own page), then the
 * clinic and the lab.
 */
export function startTabs(urls: Record<SiteName, string>): string[] {
  return [`${urls.shop}/orders/${DEMO_ORDER}`, urls.clinic, urls.lab];
}
