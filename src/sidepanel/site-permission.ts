import { SITE_HOST_PATTERNS, originPattern } from '../protocol/site-access.ts';
import { allowSite } from './background-client.ts';
import { browser } from './browser.ts';

/**
 * The side panel's half of allowing a site: Chrome's host access is asked for here, in the
 * person's click (Chrome answers chrome.permissions.request only during a user gesture, which the
 * service worker never has), then the worker adds the site and registers its page scripts.
 */
export type AllowOutcome = { kind: 'allowed'; tabs: number } | { kind: 'declined' };

/**
 * Chrome's host access to one origin (its prompt, unless the person granted it before). Also for
 * the co-pilot's model server: Steward may fetch only from origins Chrome gave it. In a click only.
 */
export const askChromeFor = (origin: string): Promise<boolean> => browser.permissions.request({ origins: [originPattern(origin)] });

/**
 * Call it first thing in a click handler: nothing may be awaited before Chrome's prompt. Chrome
 * shows no prompt for a site the person already granted (chrome://extensions, or an earlier allow).
 */
export async function allowSiteWithChrome(origin: string): Promise<AllowOutcome> {
  const granted = await askChromeFor(origin);
  if (!granted) return { kind: 'declined' };
  const r = await allowSite(origin);
  return { kind: 'allowed', tabs: r.tabs };
}

/**
 * Replaces a broad grant (every http(s) site, carried over from a version that asked for it at
 * install) with the listed sites alone. The broad grant goes first: while it stands Chrome counts
 * every listed site as granted already and would record nothing for them. Then Chrome is asked for
 * the listed sites (its prompt, in the same click: the person's gesture lasts a few seconds). False:
 * the prompt was declined; the listed sites then wait in Settings until allowed again.
 */
export async function narrowToListedSites(listed: readonly string[]): Promise<boolean> {
  await browser.permissions.remove({ origins: SITE_HOST_PATTERNS });
  return listed.length === 0 || (await browser.permissions.request({ origins: listed.map(originPattern) }));
}
