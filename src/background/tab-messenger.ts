import type { SiteAccess } from './site-access.ts';

export type SendToFrame = (tabId: number, frameId: number, message: unknown) => Promise<unknown>;

/**
 * The service worker's one way to message a tab's frame. Every message passes the site gate
 * first: to a tab whose site Steward is not allowed on, nothing is sent and the caller gets a
 * SITE_NOT_ALLOWED reply in the usual envelope (callers already validate replies).
 */
export function tabMessenger(sites: Pick<SiteAccess, 'gate'>): SendToFrame {
  return async (tabId, frameId, message) => {
    const refusal = await sites.gate(tabId);
    if (refusal) return { ok: false, error: refusal };
    return chrome.tabs.sendMessage(tabId, message, { frameId });
  };
}
