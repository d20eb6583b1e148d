import type { ModelStatus } from '../../protocol/copilot.ts';
import { anthropicClient, anthropicLabel } from './anthropic.ts';
import { checkModel } from './check-model.ts';
import type { HttpDeps } from './http.ts';
import type { LanguageModelClient, ModelConfig } from './model.ts';
import { openAiClient, openAiLabel } from './openai.ts';
import { PROMPT_API_LABEL, promptApiClient, promptApiProblem } from './prompt-api.ts';

/** The one place the worker turns the person's settings (and stored key) into a model client. */

export interface ModelDeps {
  fetch: typeof fetch;
  /** `globalThis.LanguageModel` where the browser has it. */
  promptApi?: unknown;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Hosted APIs that always need a key (a local server such as Ollama needs none). */
const NEEDS_KEY = /(^|\.)(openai\.com|anthropic\.com|openrouter\.ai|groq\.com|mistral\.ai|together\.xyz|deepseek\.com|x\.ai|googleapis\.com)$/i;

function httpDeps(deps: ModelDeps): HttpDeps {
  // A bare `fetch` reference called as a method of another object throws "Illegal invocation" in browsers.
  const f = deps.fetch;
  return { fetch: (input, init) => f(input, init), timeoutMs: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS, sleep: deps.sleep ?? realSleep };
}

export function createModel(config: ModelConfig, deps: ModelDeps): LanguageModelClient {
  if (config.provider === 'anthropic') return anthropicClient(config, httpDeps(deps));
  if (config.provider === 'prompt-api') return promptApiClient(deps.promptApi, deps.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return openAiClient(config, httpDeps(deps));
}

function label(config: ModelConfig): string {
  if (config.provider === 'prompt-api') return PROMPT_API_LABEL;
  if (!config.model) return 'No model chosen';
  return config.provider === 'anthropic' ? anthropicLabel(config) : openAiLabel(config);
}

function hostOf(endpoint: string): string | undefined {
  try {
    return new URL(endpoint).hostname;
  } catch {
    return undefined;
  }
}

/** Why the configured model cannot be used yet, or undefined when it can (without calling it). */
async function problem(config: ModelConfig, hasKey: boolean, deps: ModelDeps): Promise<string | undefined> {
  if (config.provider === 'prompt-api') return promptApiProblem(deps.promptApi);
  if (config.provider === 'openai') {
    if (!config.endpoint) return 'Enter the endpoint of an OpenAI-compatible server (for example http://localhost:11434/v1 for Ollama) in Settings → Co-pilot.';
    if (!hostOf(config.endpoint)) return 'The endpoint in Settings → Co-pilot is not a valid http(s) address.';
  }
  if (!config.model) return 'Enter the name of the model in Settings → Co-pilot.';
  const host = hostOf(config.endpoint || 'https://api.anthropic.com');
  if (!hasKey && host && NEEDS_KEY.test(host)) return `${host} needs an API key: enter it in Settings → Co-pilot.`;
  return undefined;
}

export async function modelStatus(config: ModelConfig, hasKey: boolean, deps: ModelDeps): Promise<ModelStatus> {
  const detail = await problem(config, hasKey, deps);
  return { provider: config.provider, model_label: label(config).slice(0, 200), has_key: hasKey, ready: detail === undefined, ...(detail ? { detail } : {}) };
}

/** The settings check, then a call to the endpoint (check-model.ts): `config` carries the key for it. */
export async function checkedModelStatus(config: ModelConfig, deps: ModelDeps): Promise<ModelStatus> {
  return checkModel(config, await modelStatus(config, config.key !== undefined, deps), httpDeps(deps));
}
