import type { Reply } from '../../protocol/channel.ts';
import { phrase } from '../../protocol/phrase.ts';

/**
 * A panel request refused with system text as its English (a schema's complaint about the
 * request, an exception a handler threw) gets a phrase beside it, so the person reads one sentence
 * in their language and the English stays one click away in the panel. A refusal that already has
 * its phrase, and every answer, pass as they are. Pure.
 */
export function withSystemPhrase<T>(reply: Reply<T>): Reply<T> {
  if (reply.ok || reply.error.said) return reply;
  if (reply.error.code === 'INVALID_MESSAGE') return { ...reply, error: { ...reply.error, said: phrase('request_malformed') } };
  if (reply.error.code === 'INTERNAL') return { ...reply, error: { ...reply.error, said: phrase('internal_error', { code: reply.error.code }) } };
  return reply;
}
