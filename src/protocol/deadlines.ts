/**
 * How long Steward waits for a page (DESIGN §9 invariant 9: every call into a page or a site has a
 * deadline). Fixed constants, not settings: a page that does not answer in time has stalled, and
 * the action ends — `unknown` with a TIMEOUT error once it may have run, a retryable refusal
 * before anything was sent. Shared by the service worker and the content scripts.
 */
export const PAGE_DEADLINES = {
  /** A WebMCP tool run: native `executeTool` or the polyfill. */
  tool_run_ms: 60_000,
  /** Listing a frame's tools over the polyfill's port. */
  tool_list_ms: 5_000,
  /** Any other message to a content script (observe, query, act, network, relist). */
  page_reply_ms: 30_000,
  /** The service worker waits this much past a deadline it gave the page, so the page's own TIMEOUT answer arrives first. */
  reply_grace_ms: 2_000,
  /** A backstop over one executor's whole run (its page calls have their own, shorter deadlines); a continued tool call's whole chain too. */
  execution_ms: 120_000,
  /** How long a continuation token a page's tool asked for waits for the next document to redeem it (the WebMCP explainer's "around 60 seconds"). */
  continuation_token_ms: 60_000,
} as const;

export type PageDeadlines = { -readonly [K in keyof typeof PAGE_DEADLINES]: number };
