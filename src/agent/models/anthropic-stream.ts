import { z } from 'zod';
import { badResponse, failedMidStream } from './http.ts';
import type { SseEvent } from './sse.ts';

/**
 * Anthropic's Messages API streamed (`stream: true`): named events — `content_block_start` opens a
 * block (text, or the forced `steward_step` tool call), `content_block_delta` adds to it by index
 * (`text_delta`, or `input_json_delta` fragments of the tool's JSON input), `message_stop` ends
 * the reply, `error` breaks it off. Pings and the message's own events carry nothing needed.
 */

const Start = z.object({
  index: z.number().int().nonnegative().max(63),
  content_block: z.object({ type: z.string(), text: z.string().optional(), input: z.unknown().optional() }),
});
const Delta = z.object({
  index: z.number().int().nonnegative().max(63),
  delta: z.union([z.object({ type: z.literal('text_delta'), text: z.string() }), z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }), z.object({ type: z.string() })]),
});
const Failure = z.object({ error: z.object({ message: z.unknown().optional() }).optional() });

interface Block {
  type: string;
  text: string;
  /** A tool call's input as the start event gave it whole (some servers send it there, not in deltas). */
  input?: unknown;
}

export class AnthropicStream {
  private readonly blocks: Block[] = [];

  constructor(
    private readonly host: string,
    private readonly key: string | undefined,
  ) {}

  private parse<T>(schema: z.ZodType<T>, event: SseEvent): T {
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch {
      throw badResponse(this.host, `a streamed ${event.event} event is not JSON`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw badResponse(this.host, `a streamed ${event.event} event is not in the Messages format`);
    return parsed.data;
  }

  /** Takes one event; true when the reply's text grew. */
  take(event: SseEvent): boolean {
    if (event.event === 'error') throw failedMidStream(this.host, this.parse(Failure, event).error?.message, this.key);
    const before = this.text().length;
    if (event.event === 'content_block_start') {
      const { index, content_block: b } = this.parse(Start, event);
      this.blocks[index] = { type: b.type, text: b.type === 'text' ? (b.text ?? '') : '', ...(b.input !== undefined ? { input: b.input } : {}) };
    } else if (event.event === 'content_block_delta') {
      const { index, delta } = this.parse(Delta, event);
      const block = this.blocks[index];
      if (!block) throw badResponse(this.host, 'a streamed delta for a block that never started');
      if (delta.type === 'text_delta' && 'text' in delta) block.text += delta.text;
      else if (delta.type === 'input_json_delta' && 'partial_json' in delta) block.text += delta.partial_json;
    }
    return this.text().length !== before;
  }

  private tool(): Block | undefined {
    return this.blocks.find((b) => b?.type === 'tool_use');
  }

  /** The reply so far: the tool call's JSON as it is written, else the text blocks. */
  text(): string {
    const tool = this.tool();
    if (tool) return tool.text;
    return this.blocks
      .filter((b) => b?.type === 'text')
      .map((b) => b.text)
      .join('');
  }

  /** The whole reply once the stream ended: the tool's input as JSON, else the text; throws bad_response when there is neither. */
  result(): string {
    const tool = this.tool();
    if (tool) {
      if (tool.text.trim()) return tool.text;
      if (tool.input !== undefined && !(typeof tool.input === 'object' && tool.input !== null && Object.keys(tool.input).length === 0)) return JSON.stringify(tool.input);
    }
    const text = this.text().trim();
    if (text) return text;
    throw badResponse(this.host, 'neither a tool call nor text');
  }
}
