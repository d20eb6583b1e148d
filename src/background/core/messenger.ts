import { withDeadline } from '../../base/deadline.ts';
import { parseReply, refuse, type Data, type Message, type PayloadInput, type Reply } from '../../protocol/channel.ts';
import { ContentRequests } from '../../protocol/content-channel.ts';
import { pageDeadlines } from './page-deadlines.ts';

/** The site gate every message passes (src/background/sites/site-access.ts): a refusal when the tab's site is not allowed. */
export interface SiteGate {
  gate(tabId: number): Promise<{ code: 'SITE_NOT_ALLOWED'; message: string; retryable: false } | undefined>;
}

interface SendOptions {
  /** Only this document may receive it: a frame that navigated since never sees the message. */
  documentId?: string;
  /** How long to wait for the answer; the default is `page_reply_ms`. */
  deadline_ms?: number;
}

/**
 * One request of the content channel to one frame, answered with that request's reply parsed
 * (INVALID_REPLY when it does not fit, NO_CONTENT_SCRIPT when nothing answered). Rejects when the
 * message could not be delivered, and with DeadlineExceeded when the page did not answer in time.
 */
export type SendToFrame = <K extends keyof ContentRequests & string>(
  tabId: number,
  frameId: number,
  type: K,
  payload: PayloadInput<ContentRequests, K>,
  options?: SendOptions,
) => Promise<Reply<Data<ContentRequests, K>>>;

type ChromeSend = (tabId: number, message: unknown, target: { frameId?: number; documentId?: string }) => Promise<unknown>;
// chrome's own call, not the polyfill's: end-to-end tests wrap it to watch what pages answer.
const chromeSend: ChromeSend = (tabId, message, target) => chrome.tabs.sendMessage(tabId, message, target);

/**
 * The service worker's one way to message a tab's frame. Every message passes the site gate
 * first: to a tab whose site Steward is not allowed on, nothing is sent and the caller gets a
 * SITE_NOT_ALLOWED refusal. Every message has a deadline: a page that does not answer rejects
 * with DeadlineExceeded, never hangs.
 */
/** NO_CONTENT_SCRIPT's English when the tab's page did not answer at all (the panel says it from a phrase when it is this one). */
export const noAnswerMessage = (tabId: number) => `The page in tab ${tabId} did not answer.`;

export function tabMessenger(sites: SiteGate, deadlines = pageDeadlines, sendMessage: ChromeSend = chromeSend): SendToFrame {
  return async (tabId, frameId, type, payload, options = {}) => {
    const refusal = await sites.gate(tabId);
    if (refusal) return { ok: false, error: refusal };
    const target = options.documentId !== undefined ? { documentId: options.documentId } : { frameId };
    const message = { ...payload, type } as Message<ContentRequests>;
    const raw = await withDeadline(sendMessage(tabId, message, target), options.deadline_ms ?? deadlines.page_reply_ms, `the page in tab ${tabId} (${type})`);
    // No content script there (a chrome:// page, a tab loaded before Steward, a navigation in flight).
    if (raw === undefined) return refuse('NO_CONTENT_SCRIPT', noAnswerMessage(tabId), true);
    return parseReply(ContentRequests, type, raw);
  };
}
