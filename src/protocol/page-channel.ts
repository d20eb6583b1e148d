import { z } from 'zod';
import type { RequestMap } from './channel.ts';

/**
 * The page channel: the private MessagePort between the main-world scripts (the WebMCP polyfill,
 * the network observer) and the isolated content script. The isolated world asks (PageChannelRequests, id-correlated: correlated-channel.ts);
 * the main world answers, and tells unasked (PageChannelPushes). The main world is
 * page-controlled, so the isolated side validates everything it receives and grants it no more
 * authority than the page itself has. The handshake's DOM event names are in
 * page-channel-names.ts (the network-only main-world script carries no zod).
 */

/** What the main world says with its port, on the handshake event: whether Steward's polyfill serves tools on it (page-controlled, like everything here). */
export const PortOffer = z.object({ polyfill: z.boolean() });
export type PortOffer = z.infer<typeof PortOffer>;

/** A tool as the page's polyfill lists it: only plain data, every field still unchecked (normalizeTools checks it). */
const RawToolWire = z
  .object({
    name: z.unknown(),
    title: z.unknown().optional(),
    description: z.unknown().optional(),
    inputSchema: z.unknown().optional(),
    annotations: z.unknown().optional(),
  })
  .passthrough();

/** What a page's tool threw, as the main world classified it (src/webmcp/thrown.ts); the isolated world bounds it again. */
const ThrownWire = z.object({ code: z.string().max(256).optional(), message: z.string().max(4096), truncated: z.boolean() });

/**
 * An agent's tool run Steward sent (src/webmcp/continuations.ts): the page's `requestToken()` and
 * Steward's Stop name it. Unguessable; the isolated world honours only the ones it is running.
 */
export const RunId = z.string().regex(/^run_[A-Za-z0-9_-]{16,64}$/);
/** A continuation token as a page holds it (minted by Steward's service worker). */
export const ContinuationToken = z.string().min(1).max(256);

const RunReply = z.union([z.object({ result: z.string().nullable(), truncated: z.boolean() }), z.object({ thrown: ThrownWire })]);

/** What the isolated world asks of the main world's polyfill. */
export const PageChannelRequests = {
  list: { request: z.object({}), reply: z.object({ tools: z.array(RawToolWire).max(2048) }) },
  run: {
    /** `deadline_ms`: past it the main world stops waiting for the page's tool and answers TIMEOUT. `run_id`: an agent's run (continuations, Stop). */
    request: z.object({ name: z.string(), input: z.record(z.string(), z.unknown()), deadline_ms: z.int().positive().max(600_000).optional(), run_id: RunId.optional() }),
    reply: RunReply,
  },
  /** Steward's Stop: aborts the run's signal (the tool's own signal aborts, the page hears `toolcancel`). */
  cancel: { request: z.object({ run_id: RunId }), reply: z.object({ cancelled: z.boolean() }) },
  /** The next link of a continued tool: the callback this document gave `resumeTool(token, …)`, with the call's input. */
  resumed: {
    request: z.object({ token: ContinuationToken, name: z.string().max(256), input: z.record(z.string(), z.unknown()), deadline_ms: z.int().positive().max(600_000).optional(), run_id: RunId }),
    reply: RunReply,
  },
  /**
   * What the page's tool `name` last threw since `since` (epoch ms), if it did. Chrome's native
   * executeTool reports every throw as one generic UnknownError; the main world saw the real value.
   */
  thrown: { request: z.object({ name: z.string().max(256), since: z.number() }), reply: z.object({ thrown: ThrownWire.nullable() }) },
} satisfies RequestMap;
export type PageChannelRequests = typeof PageChannelRequests;

/**
 * What the main world asks of the isolated world (the page's continuation calls), carried as
 * `{ ask: { id, type, … } }` and answered as `{ answer: { id, reply } }` on the same port. The
 * isolated world passes them to the service worker, which alone decides (src/webmcp/continuations.ts).
 */
export const PageChannelAsks = {
  /** `invocation.requestToken()` during the run `run_id`. */
  token: { request: z.object({ run_id: RunId }), reply: z.object({ token: ContinuationToken }) },
  /** `document.modelContext.resumeTool(token, …)`: accepted (the tool's name, for its events) or refused. */
  resume: { request: z.object({ token: ContinuationToken }), reply: z.object({ tool: z.string().max(256) }) },
} satisfies RequestMap;
export type PageChannelAsks = typeof PageChannelAsks;
export const AskEnvelope = z.object({ ask: z.object({ id: z.number().int().nonnegative(), type: z.string() }).passthrough() });
export const AnswerEnvelope = z.object({ answer: z.object({ id: z.number().int().nonnegative(), reply: z.unknown() }) });

/**
 * A same-origin JSON response the main world's network observer saw. Bounded there, but the
 * main world is the page's: the isolated side re-checks origin, size and secrets (NetworkBuffer).
 */
export const NetworkWire = z.object({
  url: z.string().max(4096),
  method: z.string().max(16),
  status: z.number().int().min(0).max(999),
  json: z.unknown(),
  truncated: z.boolean(),
});
export type NetworkWire = z.infer<typeof NetworkWire>;

/**
 * One request the page started (`start`) or that ended (`end`, with its status; 0 = failed), for
 * the act side: how many are in flight (an act settles once none is) and which may have written.
 * Page-controlled like the rest: the isolated world bounds ids, methods and URLs again
 * (src/content/act/requests.ts) and treats the whole as evidence, never proof.
 */
export const RequestWire = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('start'), id: z.int().nonnegative().max(Number.MAX_SAFE_INTEGER), method: z.string().max(16), url: z.string().max(4096), kind: z.enum(['fetch', 'xhr', 'beacon']) }),
  z.object({ phase: z.literal('end'), id: z.int().nonnegative().max(Number.MAX_SAFE_INTEGER), status: z.int().min(0).max(999) }),
]);
export type RequestWire = z.infer<typeof RequestWire>;

/** What the main world says unasked; nothing answers these. `changed`: the page's tools changed, list them again. */
export const PageChannelPush = z.discriminatedUnion('type', [
  z.object({ type: z.literal('changed') }),
  z.object({ type: z.literal('network'), record: NetworkWire }),
  z.object({ type: z.literal('request'), request: RequestWire }),
]);
export type PageChannelPush = z.infer<typeof PageChannelPush>;
