import { z } from 'zod';
import { badResponse, failedMidStream } from './http.ts';
import type { SseEvent } from './sse.ts';

/**
 * An OpenAI-compatible chat completion streamed as server-sent events (`stream: true`): each
 * `data:` chunk carries a delta of the first choice, `data: [DONE]` ends it. The text comes in
 * `delta.content`; a server that answers with a tool call instead streams its arguments in
 * fragments keyed by `index`, which are put back together in order.
 */

const Chunk = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            tool_calls: z.array(z.object({ index: z.number().int().nonnegative().max(63), function: z.object({ arguments: z.string().nullish() }).nullish() })).nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
  error: z.unknown().optional(),
});

export class OpenAiStream {
  private content = '';
  private refusal = '';
  private readonly calls: string[] = [];
  private ended = false;

  constructor(
    private readonly host: string,
    private readonly key: string | undefined,
  ) {}

  /** Takes one event; true when the reply's text grew. */
  take(event: SseEvent): boolean {
    if (this.ended) return false;
    if (event.data.trim() === '[DONE]') {
      this.ended = true;
      return false;
    }
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch {
      throw badResponse(this.host, 'a streamed chunk is not JSON');
    }
    const chunk = Chunk.safeParse(value);
    if (!chunk.success) throw badResponse(this.host, 'a streamed chunk has no choices');
    if (chunk.data.error !== undefined) {
      const error = chunk.data.error as { message?: unknown } | null;
      throw failedMidStream(this.host, error?.message ?? error, this.key);
    }
    const delta = chunk.data.choices?.[0]?.delta;
    if (!delta) return false;
    const before = this.text().length;
    this.content += delta.content ?? '';
    this.refusal += delta.refusal ?? '';
    for (const call of delta.tool_calls ?? []) this.calls[call.index] = (this.calls[call.index] ?? '') + (call.function?.arguments ?? '');
    return this.text().length !== before;
  }

  /** The reply so far: its text, or (a server that answered with a tool call) the call's arguments. */
  text(): string {
    return this.content || (this.calls.find((c) => c !== undefined && c !== '') ?? '');
  }

  /** The whole reply once the stream ended; throws bad_response when there is none. */
  result(): string {
    const text = this.text();
    if (text) return text;
    throw badResponse(this.host, this.refusal ? `the model refused: ${this.refusal.slice(0, 200)}` : 'the message is empty');
  }
}
