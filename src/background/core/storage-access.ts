import { chromeOnly } from './browser.ts';

/**
 * Keeps chrome.storage out of content scripts' reach. Steward's records there grant power (the
 * allowed sites, the settings with the co-pilot's endpoint and approval windows, the audit head's
 * copy), and a content script is the page's neighbour: if the page ever compromised the isolated
 * world, a write there must not add a site or redirect the co-pilot. `TRUSTED_CONTEXTS` leaves
 * access to the service worker and Steward's own pages only; content scripts get "Access to storage
 * is not allowed from this context."
 *
 * Chrome keeps the level across service-worker and browser restarts (checked on Chromium 156), so
 * it is already in force whenever a registered content script runs; it is set again at every start
 * anyway, and Steward registers its page scripts only once it holds (site-access.ts). The session
 * area is restricted by default; it is set explicitly so a change of default cannot open it.
 */
export async function restrictStorageToExtension(): Promise<void> {
  await Promise.all([chromeOnly.storage.local.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' }), chromeOnly.storage.session.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' })]);
}
