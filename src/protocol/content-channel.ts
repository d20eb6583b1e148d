import { z } from 'zod';
import type { Payload, RequestMap } from './channel.ts';
import { ActReport, ActSettle, ActStep, NetworkResponse, ObserveReplyText, QueryResponse, SnapshotQuerySchema } from './messages.ts';
import { AgentId, JsonObject } from './primitives.ts';
import { TabPresence } from './presence.ts';
import { ContinuationToken, RunId } from './page-channel.ts';
import { ToolDescriptor, ToolRunOutcome, WebMcpApi } from './webmcp.ts';

/**
 * The service worker ↔ content script (isolated world) channel, both ways. The worker accepts
 * reports only from Steward's own content scripts on allowed sites; a content script accepts
 * requests only from Steward's own service worker (src/content/worker-channel.ts).
 */

const documentToken = z.string().max(64);

/**
 * How the frame settled before an observation (src/content/act/settle.ts), and — when it is quiet —
 * a key for what it shows: equal keys mean no DOM change, scroll or resize in between.
 */
export const PageSettle = ActSettle.extend({ key: z.string().max(128).optional() });
export type PageSettle = z.infer<typeof PageSettle>;

/** What the worker asks of a frame's content script. */
export const ContentRequests = {
  'content/run-tool': {
    request: z.object({
      name: z.string().min(1),
      input: JsonObject,
      /** How long the tool may take; past it the content script answers TIMEOUT (the tool may still be running). */
      deadline_ms: z.int().positive().max(600_000).optional(),
      /** An agent's run (src/webmcp/continuations.ts): the page may ask a continuation token for it, and Stop cancels it by this id. */
      run_id: RunId.optional(),
    }),
    reply: ToolRunOutcome,
  },
  /** The person's Stop: the run's abort signal fires in the page (its tool's own signal aborts, `toolcancel` is fired). */
  'content/cancel-tool': { request: z.object({ run_id: RunId }), reply: z.object({ cancelled: z.boolean() }) },
  /** The next link of a continued tool call: the callback this document gave `resumeTool(token, …)`, run with the call's input. */
  'content/run-resumed': {
    request: z.object({ name: z.string().min(1).max(256), token: ContinuationToken, input: JsonObject, run_id: RunId, deadline_ms: z.int().positive().max(600_000).optional() }),
    reply: ToolRunOutcome,
  },
  'content/relist-tools': { request: z.object({}), reply: z.null() },
  /**
   * A snapshot of the frame (incremental in the page unless `full`: then everything is walked
   * afresh). With `since` — the document and sequence number of the snapshot the worker already
   * holds — the answer may be a delta (see ObserveReplyText).
   */
  'content/observe': {
    request: z.object({
      full: z.boolean().optional(),
      since: z.object({ documentToken, seq: z.int().nonnegative() }).optional(),
      /** Send the snapshot's digest with a delta (always with `full`; see snapshot-digest.ts). */
      verify: z.boolean().optional(),
    }),
    reply: ObserveReplyText,
  },
  /** Answers once the frame is quiet by its own events (DOM, recent requests, animations), or at `cap_ms`. */
  /** `quiet_ms`: how long the DOM must have been still (counted from its last change, not from the ask); the default is the act's quiet period. */
  'content/settle': { request: z.object({ cap_ms: z.int().nonnegative().max(10_000), quiet_ms: z.int().positive().max(10_000).optional() }), reply: PageSettle },
  /**
   * Elements of a fresh snapshot of the frame: by refs (expand-by-ref), role, name or text. With
   * `documentToken`, refuses (STALE_DOCUMENT) if the frame now holds another document.
   */
  'content/query': { request: z.object({ documentToken: documentToken.optional(), query: SnapshotQuerySchema }), reply: QueryResponse },
  /**
   * DOM steps in order, stopping at the first that is not done. Refs are only meaningful for the
   * document that issued them: with `documentToken`, a frame now holding another document refuses.
   */
  'content/act': { request: z.object({ documentToken: documentToken.optional(), steps: z.array(ActStep).min(1).max(16) }), reply: ActReport },
  /** The same-origin JSON responses the page fetched lately (main world → isolated buffer), for fusion. */
  'content/network': { request: z.object({}), reply: NetworkResponse },
  /** Who acts on this tab now (null: nobody): the top frame draws Steward's indicator from it (src/content/presence/). */
  'content/presence': { request: z.object({ presence: TabPresence.nullable() }), reply: z.null() },
} satisfies RequestMap;
export type ContentRequests = typeof ContentRequests;
export type ContentObserve = Payload<ContentRequests, 'content/observe'>;
export type ContentQuery = Payload<ContentRequests, 'content/query'>;
export type ContentAct = Payload<ContentRequests, 'content/act'>;

/** What content scripts tell the worker. */
export const ContentReports = {
  /** The frame's WebMCP tools (sent on every change). */
  'content/tools': {
    request: z.object({ api: WebMcpApi, url: z.string().max(8192), tools: z.array(ToolDescriptor).max(512) }),
    reply: z.null(),
  },
  /** The top frame asks who acts on its tab (at start: a new document of a tab an agent acts on). */
  'content/presence-ask': { request: z.object({}), reply: TabPresence.nullable() },
  /**
   * The person pressed Stop on Steward's indicator (a trusted click, handled in the isolated world).
   * The worker stops that agent only if it acts on the sender's own tab.
   */
  'content/stop-agent': { request: z.object({ agent_id: AgentId }), reply: z.object({ stopped: z.boolean() }) },
  /**
   * A page's tool asked for a continuation token (`invocation.requestToken()`) while the agent's run
   * `run_id` runs in this frame. The worker issues one only for a run it sent to this very document.
   */
  'content/tool-token': { request: z.object({ run_id: RunId }), reply: z.object({ token: ContinuationToken }) },
  /** A page redeems a continuation token (`resumeTool(token, …)`): accepted, with the tool's name, or refused. */
  'content/tool-resume': { request: z.object({ token: ContinuationToken }), reply: z.object({ tool: z.string().max(256) }) },
} satisfies RequestMap;
export type ContentReports = typeof ContentReports;
