import { withDeadline } from '../../pipeline/deadline.ts';
import { pageDeadlines } from '../pipeline/page-deadlines.ts';
import type { SiteAccess } from '../sites/site-access.ts';
import { browser } from '../browser.ts';

export interface SendOptions {
  /** Only this document may receive it: a frame that navigated since never sees the message. */
  documentId?: string;
  /** How long to wait for the answer; the default is `page_reply_ms`. */
  deadline_ms?: number;
}

export type SendToFrame = (tabId: number, frameId: number, message: unknown, options?: SendOptions) => Promise<unknown>;

type ChromeSend = (tabId: number, message: unknown, target: { frameId?: number; documentId?: string }) => Promise<unknown>;
const chromeSend: ChromeSend = (tabId, message, target) => browser.tabs.sendMessage(tabId, message, target);

/**
 * The service worker's one way to message a tab's frame. Every message passes the site gate
 * first: to a tab whose site Steward is not allowed on, nothing is sent and the caller gets a
 * SITE_NOT_ALLOWED reply in the usual envelope (callers already validate replies). Every message
 * has a deadline: a page that does not answer rejects with DeadlineExceeded, never hangs.
 */
export function tabMessenger(sites: Pick<SiteAccess, 'gate'>, deadlines = pageDeadlines, sendMessage: ChromeSend = chromeSend): SendToFrame {
  return async (tabId, frameId, message, options = {}) => {
    const refusal = await sites.gate(tabId);
    if (refusal) return { ok: false, error: refusal };
    const target = options.documentId !== undefined ? { documentId: options.documentId } : { frameId };
    const type = typeof (message as { type?: unknown })?.type === 'string' ? (message as { type: string }).type : 'message';
    return withDeadline(sendMessage(tabId, message, target), options.deadline_ms ?? deadlines.page_reply_ms, `the page in tab ${tabId} (${type})`);
  };
}
