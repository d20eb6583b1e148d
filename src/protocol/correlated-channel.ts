import { z } from 'zod';
import { dispatch, type Handlers, type Message, type RequestMap } from './channel.ts';

/**
 * A request map carried over a transport that has no replies of its own (a MessagePort): each
 * request travels as `{ id, type, ...payload }` and its answer as `{ id, reply }`, where `reply`
 * is the channel's usual Reply envelope. The sender still parses each reply with its type's own
 * schema (channelClient / parseReply); this only pairs answers with the requests they answer.
 */

export type CorrelatedRequest<M extends RequestMap> = Message<M> & { id: number };
export type CorrelatedReply = { id: number; reply: unknown };

const Id = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const CorrelatedReplySchema = z.object({ id: Id, reply: z.unknown() });
const RequestId = z.object({ id: Id });

interface Pending {
  resolve: (reply: unknown) => void;
  timer: ReturnType<typeof setTimeout>;
}

export interface Correlator<M extends RequestMap> {
  /** For channelClient: posts the message with a fresh id; resolves with the raw reply carrying that id, rejects with `expired` past the deadline. */
  send(message: Message<M>): Promise<unknown>;
  /** Takes one message from the transport: true when it answered a pending request. Unknown ids and anything not shaped `{ id, reply }` are ignored. */
  receive(data: unknown): boolean;
}

export function correlator<M extends RequestMap>(
  post: (request: CorrelatedRequest<M>) => void,
  deadlineMs: (message: Message<M>) => number,
  expired: (message: Message<M>, ms: number) => Error,
): Correlator<M> {
  let nextId = 1;
  const pending = new Map<number, Pending>();
  return {
    send(message) {
      const id = nextId++;
      const ms = deadlineMs(message);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(expired(message, ms));
        }, ms);
        pending.set(id, { resolve, timer });
        try {
          post({ ...message, id });
        } catch (error) {
          clearTimeout(timer);
          pending.delete(id);
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
    receive(data) {
      const parsed = CorrelatedReplySchema.safeParse(data);
      if (!parsed.success) return false;
      const waiting = pending.get(parsed.data.id);
      if (!waiting) return false;
      pending.delete(parsed.data.id);
      clearTimeout(waiting.timer);
      waiting.resolve(parsed.data.reply);
      return true;
    },
  };
}

/**
 * The receiver's end: dispatches one `{ id, type, ...payload }` to the handler table and posts
 * `{ id, reply }` (a refusal for a message that does not fit). Without a usable id there is no
 * one to answer, so nothing is posted.
 */
export async function answerCorrelated<M extends RequestMap, Ctx>(map: M, handlers: Handlers<M, Ctx>, data: unknown, ctx: Ctx, post: (answer: CorrelatedReply) => void): Promise<void> {
  const id = RequestId.safeParse(data);
  if (!id.success) return;
  post({ id: id.data.id, reply: await dispatch(map, handlers, data, ctx) });
}
