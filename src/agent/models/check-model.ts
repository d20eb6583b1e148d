import { z } from 'zod';
import type { ModelStatus } from '../../protocol/copilot.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';
import { failureFor, getOnce, type HttpDeps } from './http.ts';
import { ModelFailure, type ModelConfig } from './model.ts';

/**
 * The connection check behind "Test connection" and the Co-pilot view's "ready": one GET of the
 * server's model list (`/models` on OpenAI-compatible servers, `/v1/models` on Anthropic), which
 * costs no tokens and takes no scripted reply. It proves the server answers, takes the key, and —
 * where the list names models as they are asked for (OpenAI-compatible) — that the model exists.
 */

const CHECK_TIMEOUT_MS = 10_000;
const ANTHROPIC_API = 'https://api.anthropic.com';
const ModelList = z.object({ data: z.array(z.object({ id: z.string() })) });

function request(config: ModelConfig): { url: string; headers: Record<string, string> } {
  if (config.provider === 'anthropic') {
    const base = (config.endpoint || ANTHROPIC_API).replace(/\/+$/, '').replace(/\/v1$/, '');
    const headers: Record<string, string> = { 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true', ...(config.key ? { 'x-api-key': config.key } : {}) };
    return { url: `${base}/v1/models`, headers };
  }
  return { url: `${config.endpoint.replace(/\/+$/, '')}/models`, headers: config.key ? { authorization: `Bearer ${config.key}` } : {} };
}

/** Why the server does not serve the model, or undefined (it does, or its list cannot tell). */
function missingModel(config: ModelConfig, text: string, host: string): { text: string; said: Phrase } | undefined {
  // Anthropic lists dated ids (claude-…-20250929) where a request may name an alias: no verdict.
  if (config.provider !== 'openai') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const list = ModelList.safeParse(body);
  if (!list.success || list.data.data.length === 0) return undefined;
  const ids = list.data.data.map((m) => m.id);
  if (ids.includes(config.model)) return undefined;
  const offered = ids.slice(0, 5).join(', ') + (ids.length > 5 ? ', …' : '');
  return {
    text: `${host} answers, but has no model named “${config.model}” (it offers ${offered}). Check the model name in Settings → Co-pilot.`,
    said: phrase('model_missing', { host, model: config.model, offered }),
  };
}

/** `status` (the settings check) made real by calling the endpoint: ready only if it answered. */
export async function checkModel(config: ModelConfig, status: ModelStatus, deps: HttpDeps): Promise<ModelStatus> {
  if (!status.ready || config.provider === 'prompt-api') return { ...status, checked: status.ready };
  const { url, headers } = request(config);
  const host = new URL(url).host;
  const notReady = (detail: string, said: Phrase | undefined): ModelStatus => ({ ...status, ready: false, checked: false, detail: detail.slice(0, 1000), ...(said ? { detail_said: said } : {}) });
  try {
    const answer = await getOnce(url, headers, { ...deps, timeoutMs: Math.min(deps.timeoutMs, CHECK_TIMEOUT_MS) });
    if (answer.status < 200 || answer.status > 299) {
      const failure = failureFor(answer, host, config.key);
      return notReady(failure.message, failure.error.message_said);
    }
    const missing = missingModel(config, answer.text, host);
    return missing ? notReady(missing.text, missing.said) : { ...status, ready: true, checked: true };
  } catch (e) {
    if (e instanceof ModelFailure) return notReady(e.message, e.error.message_said);
    throw e;
  }
}
