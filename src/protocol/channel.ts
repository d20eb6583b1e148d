import { z } from 'zod';
import { Phrase } from './phrase.ts';

/**
 * One channel between two of Steward's contexts, described once as a request map:
 * `{ [type]: { request: payload schema, reply: data schema } }`. Everything else derives from it:
 * the shape of its messages (`{ type, ...payload }`), the receiver's handler table (a
 * missing handler is a type error), the receiver's `dispatch`, and the sender's `call`, which
 * parses each reply with that type's own reply schema. Adding a message is one entry in a map.
 */

interface Route {
  request: z.ZodObject;
  reply: z.ZodType;
}
export type RequestMap = Record<string, Route>;

/** What a handler receives (defaults applied). */
export type Payload<M extends RequestMap, K extends keyof M> = z.output<M[K]['request']>;
/** What a caller passes (before defaults). */
export type PayloadInput<M extends RequestMap, K extends keyof M> = z.input<M[K]['request']>;
export type Data<M extends RequestMap, K extends keyof M> = z.output<M[K]['reply']>;
/** One message of the channel as it travels. */
export type Message<M extends RequestMap> = { [K in keyof M & string]: { type: K } & Payload<M, K> }[keyof M & string];

/**
 * A refusal: its code, the English agents, logs and the audit read, and, for a refusal the side
 * panel shows, the same sentence as a phrase (src/protocol/phrase.ts) so the panel says it in the
 * person's language. Never sent to agents.
 */
export type ReplyError = { code: string; message: string; retryable: boolean; said?: Phrase };
/** Every reply on every channel: a result, or a refusal a caller can tell apart from one. */
export type Reply<T> = { ok: true; data: T } | { ok: false; error: ReplyError };
export type Refusal = Extract<Reply<never>, { ok: false }>;

/** A refusal's phrase that does not fit is dropped, not the refusal: the English it travels beside is shown instead. */
const SaidBeside = Phrase.optional().catch(undefined);

export const Reply = <T extends z.ZodType>(data: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), data }),
    z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string(), retryable: z.boolean(), said: SaidBeside }) }),
  ]);

export const ok = <T>(data: T): Reply<T> => ({ ok: true, data });
export const refuse = (code: string, message: string, retryable = false): Refusal => ({ ok: false, error: { code, message: message.slice(0, 4000), retryable } });
/** A refusal the side panel shows: `said` is `message` as a phrase, for the person's language. */
export const refuseSaying = (said: Phrase, code: string, message: string, retryable = false): Refusal => {
  const refusal = refuse(code, message, retryable);
  return { ...refusal, error: { ...refusal.error, said } };
};

type HandlerResult<T> = Reply<T> | Promise<Reply<T>>;
/** The receiver's table: one handler per type of the map, each answering with that type's data. */
export type Handlers<M extends RequestMap, Ctx> = { [K in keyof M]: (payload: Payload<M, K>, ctx: Ctx) => HandlerResult<Data<M, K>> };

/** Whether a message claims one of the map's types (decided on `type` alone, before any trust). */
export function claimsType<M extends RequestMap>(map: M, message: unknown): message is { type: keyof M & string } {
  if (typeof message !== 'object' || message === null) return false;
  const type = (message as { type?: unknown }).type;
  return typeof type === 'string' && Object.hasOwn(map, type);
}

const internal = (error: unknown): Refusal => refuse('INTERNAL', String(error), true);

/**
 * Parses a message by its type's schema (INVALID_MESSAGE when it does not fit) and hands the
 * payload to that type's handler. A handler that answers at once is answered at once (a content
 * script's click may unload the page before a later turn); one that throws is INTERNAL.
 */
export function dispatch<M extends RequestMap, Ctx>(map: M, handlers: Handlers<M, Ctx>, message: unknown, ctx: Ctx): HandlerResult<unknown> {
  if (!claimsType(map, message)) return refuse('INVALID_MESSAGE', 'Unknown message type.');
  const type = message.type;
  const parsed = map[type]!.request.safeParse(message);
  if (!parsed.success) return refuse('INVALID_MESSAGE', parsed.error.message);
  try {
    const result = handlers[type](parsed.data as Payload<M, typeof type>, ctx);
    return result instanceof Promise ? result.catch(internal) : result;
  } catch (error) {
    return internal(error);
  }
}

export interface ChannelClient<M extends RequestMap> {
  /** Sends `{ type, ...payload }`; the answer is parsed with this type's reply schema (INVALID_REPLY when it does not fit). */
  call<K extends keyof M & string>(type: K, payload: PayloadInput<M, K>): Promise<Reply<Data<M, K>>>;
}

/** Describes the first problem of a reply that does not fit, for the refusal's message. */
function replyProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue?.path.length ? ` (${issue.path.join('.')}: ${issue.message})` : '';
}

const replySchemas = new WeakMap<RequestMap, Map<string, z.ZodType>>();

/** An answer to `type`, parsed with that type's reply schema (INVALID_REPLY when it does not fit). */
export function parseReply<M extends RequestMap, K extends keyof M & string>(map: M, type: K, raw: unknown): Reply<Data<M, K>> {
  let schemas = replySchemas.get(map);
  if (!schemas) replySchemas.set(map, (schemas = new Map(Object.entries(map).map(([t, route]) => [t, Reply(route.reply)]))));
  const parsed = schemas.get(type)!.safeParse(raw);
  if (!parsed.success) return refuse('INVALID_REPLY', `The answer to ${type} does not fit its schema${replyProblem(parsed.error)}.`);
  return parsed.data as Reply<Data<M, K>>;
}

/** A sender's side of a channel. `send` delivers one message and resolves with the raw answer (it may throw: the caller decides what an unreachable peer means). */
export function channelClient<M extends RequestMap>(map: M, send: (message: Message<M>) => Promise<unknown>): ChannelClient<M> {
  return {
    async call(type, payload) {
      return parseReply(map, type, await send({ ...payload, type } as unknown as Message<M>));
    },
  };
}
