import { z } from 'zod';
import { DEMO_MODEL_ID } from '../../protocol/copilot.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';
import type { ChatMessage } from '../ports.ts';
import { badResponse, failureFor, parseBody, postJson, type HttpDeps, type OnEvent } from './http.ts';
import { OpenAiStream } from './openai-stream.ts';
import type { LanguageModelClient, ModelConfig } from './model.ts';
import { STEP_OBJECT_SCHEMA } from './step-json-schema.ts';

/**
 * OpenAI-compatible chat completions (OpenAI, Ollama, LM Studio, vLLM, OpenRouter). The step is
 * asked for with a JSON-schema `response_format`; a server that does not support it gets the same
 * request without it once, and this client remembers not to send it again.
 */

const Completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }) })).min(1),
});

const UNSUPPORTED_FORMAT = /response_format|json_schema|unsupported|not supported/i;

/** The model's name, and the same as a phrase for the panel. */
export function openAiLabel(config: ModelConfig): { text: string; said: Phrase } {
  if (config.model === DEMO_MODEL_ID) return { text: 'Demo model (scripted)', said: phrase('model_label_demo') };
  let host = config.endpoint;
  try {
    host = new URL(config.endpoint).host;
  } catch {
    // Shown as typed.
  }
  return { text: `${config.model} at ${host}`, said: phrase('model_label_at', { model: config.model, host }) };
}

export function openAiClient(config: ModelConfig, deps: HttpDeps): LanguageModelClient {
  const url = `${config.endpoint.replace(/\/+$/, '')}/chat/completions`;
  const host = new URL(url).host;
  const headers: Record<string, string> = config.key ? { authorization: `Bearer ${config.key}` } : {};
  let structured = true;

  async function complete(messages: ChatMessage[], signal?: AbortSignal, onText?: (soFar: string) => void): Promise<string> {
    // Streamed when someone watches; a server that ignores `stream` answers in one piece, read below as before.
    const base = { model: config.model, messages, ...(onText ? { stream: true } : {}) };
    const format = { response_format: { type: 'json_schema', json_schema: { name: 'steward_step', schema: STEP_OBJECT_SCHEMA } } };
    const stream = new OpenAiStream(host, config.key);
    const onEvent: OnEvent | undefined = onText && ((e) => stream.take(e) && onText(stream.text()));
    let answer = await postJson(url, headers, structured ? { ...base, ...format } : base, deps, signal, onEvent);
    if (structured && answer.status === 400 && UNSUPPORTED_FORMAT.test(answer.text)) {
      structured = false;
      answer = await postJson(url, headers, base, deps, signal, onEvent);
    }
    if (answer.status < 200 || answer.status > 299) throw failureFor(answer, host, config.key);
    if (answer.streamed) return stream.result();
    const parsed = Completion.safeParse(parseBody(answer, host));
    if (!parsed.success) throw badResponse(host, 'no choices with a message');
    const { content, refusal } = parsed.data.choices[0]!.message;
    if (content) return content;
    throw badResponse(host, refusal ? `the model refused: ${refusal.slice(0, 200)}` : 'the message is empty');
  }

  const named = openAiLabel(config);
  return { label: named.text, label_said: named.said, complete };
}
