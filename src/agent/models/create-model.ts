import type { ModelStatus } from '../../protocol/copilot.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';
import { anthropicClient, anthropicLabel } from './anthropic.ts';
import { checkModel } from './check-model.ts';
import type { HttpDeps } from './http.ts';
import type { LanguageModelClient, ModelConfig } from './model.ts';
import { openAiClient, openAiLabel } from './openai.ts';
import { PROMPT_API_LABEL, promptApiClient, promptApiProblem, type Problem } from './prompt-api.ts';

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

/** The model's name, and the same as a phrase where Steward's own words name it (an Anthropic model is its name alone). */
function label(config: ModelConfig): { text: string; said?: Phrase } {
  if (config.provider === 'prompt-api') return { text: PROMPT_API_LABEL, said: phrase('model_label_prompt_api') };
  if (!config.model) return { text: 'No model chosen', said: phrase('model_label_none') };
  return config.provider === 'anthropic' ? { text: anthropicLabel(config) } : openAiLabel(config);
}

function hostOf(endpoint: string): string | undefined {
  try {
    return new URL(endpoint).hostname;
  } catch {
    return undefined;
  }
}

/** Why the configured model cannot be used yet, or undefined when it can (without calling it). */
async function problem(config: ModelConfig, hasKey: boolean, deps: ModelDeps): Promise<Problem | undefined> {
  if (config.provider === 'prompt-api') return promptApiProblem(deps.promptApi);
  if (config.provider === 'openai') {
    if (!config.endpoint)
      return {
        text: 'Enter the endpoint of an OpenAI-compatible server (for example http://localhost:11434/v1 for Ollama) in Settings → Co-pilot.',
        said: phrase('model_no_endpoint'),
      };
    if (!hostOf(config.endpoint)) return { text: 'The endpoint in Settings → Co-pilot is not a valid http(s) address.', said: phrase('model_bad_endpoint') };
  }
  if (!config.model) return { text: 'Enter the name of the model in Settings → Co-pilot.', said: phrase('model_no_model') };
  const host = hostOf(config.endpoint || 'https://api.anthropic.com');
  if (!hasKey && host && NEEDS_KEY.test(host)) return { text: `${host} needs an API key: enter it in Settings → Co-pilot.`, said: phrase('model_needs_key', { host }) };
  return undefined;
}

export async function modelStatus(config: ModelConfig, hasKey: boolean, deps: ModelDeps): Promise<ModelStatus> {
  const why = await problem(config, hasKey, deps);
  const named = label(config);
  return {
    provider: config.provider,
    model_label: named.text.slice(0, 200),
    ...(named.said ? { model_label_said: named.said } : {}),
    has_key: hasKey,
    ready: why === undefined,
    ...(why ? { detail: why.text, detail_said: why.said } : {}),
  };
}

/** The settings check, then a call to the endpoint (check-model.ts): `config` carries the key for it. */
export async function checkedModelStatus(config: ModelConfig, deps: ModelDeps): Promise<ModelStatus> {
  return checkModel(config, await modelStatus(config, config.key !== undefined, deps), httpDeps(deps));
}
