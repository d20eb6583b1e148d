import { z } from 'zod';
import type { ChatMessage } from '../ports.ts';
import { AnthropicStream } from './anthropic-stream.ts';
import { badResponse, failureFor, parseBody, postJson, type HttpDeps, type OnEvent } from './http.ts';
import type { LanguageModelClient, ModelConfig } from './model.ts';
import { STEP_OBJECT_SCHEMA } from './step-json-schema.ts';

/**
 * Anthropic's Messages API, called from the browser (hence the direct-browser-access header). The
 * step comes back as the input of a forced `steward_step` tool call; a text block is the fallback.
 */

const ANTHROPIC_API = 'https://api.anthropic.com';
const VERSION = '2023-06-01';
const MAX_TOKENS = 2048;
const TOOL = 'steward_step';

const Reply = z.object({
  content: z.array(z.union([z.object({ type: z.literal('tool_use'), name: z.string(), input: z.unknown() }), z.object({ type: z.literal('text'), text: z.string() }), z.object({ type: z.string() })])),
});

export function anthropicLabel(config: ModelConfig): string {
  return `${config.model} (Anthropic)`;
}

/** The system text apart; the rest as alternating turns that start with the person's. */
function turns(messages: ChatMessage[]): { system: string; messages: Array<{ role: 'user' | 'assistant'; content: string }> } {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
  const out: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    const last = out[out.length - 1];
    if (last?.role === m.role) last.content += `\n\n${m.content}`;
    else out.push({ role: m.role, content: m.content });
  }
  if (out[0]?.role !== 'user') out.unshift({ role: 'user', content: '(continue)' });
  return { system: system.join('\n\n'), messages: out };
}

export function anthropicClient(config: ModelConfig, deps: HttpDeps): LanguageModelClient {
  const base = (config.endpoint || ANTHROPIC_API).replace(/\/+$/, '').replace(/\/v1$/, '');
  const url = `${base}/v1/messages`;
  const host = new URL(url).host;
  const headers: Record<string, string> = {
    'anthropic-version': VERSION,
    'anthropic-dangerous-direct-browser-access': 'true',
    ...(config.key ? { 'x-api-key': config.key } : {}),
  };

  async function complete(messages: ChatMessage[], signal?: AbortSignal, onText?: (soFar: string) => void): Promise<string> {
    const body = {
      model: config.model,
      max_tokens: MAX_TOKENS,
      ...(onText ? { stream: true } : {}),
      ...turns(messages),
      tools: [{ name: TOOL, description: "Steward's next step toward the person's goal.", input_schema: STEP_OBJECT_SCHEMA }],
      tool_choice: { type: 'tool', name: TOOL },
    };
    const stream = new AnthropicStream(host, config.key);
    const onEvent: OnEvent | undefined = onText && ((e) => stream.take(e) && onText(stream.text()));
    const answer = await postJson(url, headers, body, deps, signal, onEvent);
    if (answer.status < 200 || answer.status > 299) throw failureFor(answer, host, config.key);
    if (answer.streamed) return stream.result();
    const parsed = Reply.safeParse(parseBody(answer, host));
    if (!parsed.success) throw badResponse(host, 'no content blocks');
    const blocks = parsed.data.content;
    const tool = blocks.find((b): b is { type: 'tool_use'; name: string; input: unknown } => b.type === 'tool_use' && 'input' in b);
    if (tool) return JSON.stringify(tool.input);
    const text = blocks
      .filter((b): b is { type: 'text'; text: string } => b.type === 'text' && 'text' in b)
      .map((b) => b.text)
      .join('')
      .trim();
    if (text) return text;
    throw badResponse(host, 'neither a tool call nor text');
  }

  return { label: anthropicLabel(config), complete };
}
