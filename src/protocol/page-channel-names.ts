/**
 * The DOM event names of the main ↔ isolated port handshake. Kept free of imports so the
 * main-world scripts, parsed on every allowed page at document_start, do not carry zod.
 */
export const HANDSHAKE_FROM_MAIN = 'steward:webmcp-bridge-port';
export const HANDSHAKE_FROM_ISOLATED = 'steward:webmcp-bridge-request';
/**
 * Dispatched (synchronously, on the document) by the isolated world right before it observes: the
 * main world then writes the listener marks it recorded since the last time (listener-marks.ts).
 */
export const LISTENER_MARKS_FLUSH = 'steward:listener-marks-flush';
/**
 * Dispatched (synchronously, on the document) by the isolated world while it waits for the page to
 * settle, with the window `"<from>,<to>"` (performance.now() ms): the main world answers at once with
 * PAGE_TIMERS_REPLY, whose detail is when the last short timer the page set in that window and has
 * not yet run is due (`""`: none). See src/content/main/page-timers.ts.
 */
export const PAGE_TIMERS_QUERY = 'steward:page-timers-query';
export const PAGE_TIMERS_REPLY = 'steward:page-timers-reply';
/**
 * Dispatched (synchronously, on the document) by the isolated world around an agent's act: detail
 * `"on"` before its first step, `"off"` once the page settled. While on, the main world answers the
 * page's `confirm` / `prompt` / `alert` itself — never yes (Cancel, no text) — and notes each; on
 * `"off"` it answers at once with PAGE_DIALOGS_REPLY, whose detail is the JSON list of what the page
 * asked. See src/content/main/page-dialogs.ts.
 */
export const PAGE_DIALOGS_ARM = 'steward:page-dialogs-arm';
export const PAGE_DIALOGS_REPLY = 'steward:page-dialogs-reply';
