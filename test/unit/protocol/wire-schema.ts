import { z } from 'zod';
import type { Message, RequestMap } from '../../../src/protocol/channel.ts';
import { ContentReports, ContentRequests } from '../../../src/protocol/content-channel.ts';
import { PanelRequests } from '../../../src/protocol/panel-channel.ts';

/**
 * A channel's messages as one schema: a discriminated union of `{ type, ...payload }`. The
 * receiver's `dispatch` checks a message the same way (its type, then that type's request
 * schema); tests use the union to say in one line which messages a channel accepts.
 */
export function wireSchema<M extends RequestMap>(map: M): z.ZodType<Message<M>> {
  const options = Object.entries(map).map(([type, route]) => route.request.extend({ type: z.literal(type) }));
  return z.discriminatedUnion('type', options as unknown as [z.ZodObject, ...z.ZodObject[]]) as unknown as z.ZodType<Message<M>>;
}

export const PanelMessage = wireSchema(PanelRequests);
export const ContentRequestMessage = wireSchema(ContentRequests);
export const ContentReportMessage = wireSchema(ContentReports);
