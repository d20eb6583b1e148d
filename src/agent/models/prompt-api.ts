import { DeadlineExceeded, withDeadline } from '../../base/deadline.ts';
import type { ChatMessage } from '../ports.ts';
import { abortError } from './http.ts';
import { ModelFailure, type LanguageModelClient } from './model.ts';
import { STEP_SCHEMA } from './step-json-schema.ts';

/**
 * Chrome's built-in Prompt API (the `LanguageModel` global, injected). A session per step: the
 * earlier turns go in as initial prompts, the last one is prompted with the step's JSON Schema as
 * `responseConstraint`. Chrome downloads the model only after a click, so "downloadable" is a
 * sentence telling the person where to click, not a silent wait.
 */

type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

interface PromptSession {
  prompt(input: string, options?: { responseConstraint?: unknown; signal?: AbortSignal }): Promise<string>;
  destroy?(): void;
}

interface PromptApi {
  availability(options?: unknown): Promise<Availability>;
  create(options?: { initialPrompts?: ChatMessage[]; signal?: AbortSignal }): Promise<PromptSession>;
}

/** Chrome asks which languages go in and come out; the prompt and the step are English text. */
const LANGUAGES = { expectedInputs: [{ type: 'text', languages: ['en'] }], expectedOutputs: [{ type: 'text', languages: ['en'] }] };

export const PROMPT_API_LABEL = 'Chrome built-in model';

function asPromptApi(value: unknown): PromptApi | undefined {
  const api = value as Partial<PromptApi> | null | undefined;
  return api && typeof api.availability === 'function' && typeof api.create === 'function' ? (api as PromptApi) : undefined;
}

const unavailable = (message: string) => new ModelFailure({ code: 'unavailable', message });

/** Why the Prompt API cannot answer now, or undefined when it can. */
export async function promptApiProblem(value: unknown): Promise<string | undefined> {
  const api = asPromptApi(value);
  if (!api) return 'This Chrome has no built-in Prompt API. Use a recent Chrome with the on-device model, or choose another provider in Settings → Co-pilot.';
  let availability: string;
  try {
    availability = await api.availability(LANGUAGES);
  } catch (e) {
    return `Chrome could not say whether its on-device model is available (${e instanceof Error ? e.message : String(e)}). Choose another provider in Settings → Co-pilot.`;
  }
  if (availability === 'available') return undefined;
  if (availability === 'downloadable') return 'Click Prepare in Settings → Co-pilot: Chrome needs a click to download the on-device model.';
  if (availability === 'downloading') return 'Chrome is still downloading its on-device model. Try again when the download has finished.';
  return "Chrome's on-device model is unavailable on this device (hardware, storage or policy). Choose another provider in Settings → Co-pilot.";
}

export function promptApiClient(value: unknown, timeoutMs: number): LanguageModelClient {
  async function complete(messages: ChatMessage[], signal?: AbortSignal): Promise<string> {
    const problem = await promptApiProblem(value);
    if (problem) throw unavailable(problem);
    const api = asPromptApi(value)!;
    const last = messages[messages.length - 1];
    if (!last) throw new ModelFailure({ code: 'bad_response', message: 'Steward had nothing to ask the model.' });
    const stop = new AbortController();
    const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    let session: PromptSession | undefined;
    try {
      const work = (async () => {
        session = await api.create({ ...LANGUAGES, initialPrompts: messages.slice(0, -1), signal: combined });
        return session.prompt(last.content, { responseConstraint: STEP_SCHEMA, signal: combined });
      })();
      const text = await withDeadline(work, timeoutMs, "Chrome's on-device model");
      if (!text.trim()) throw new ModelFailure({ code: 'bad_response', message: "Chrome's on-device model gave an empty answer. Try again." });
      return text;
    } catch (e) {
      if (signal?.aborted) throw abortError();
      if (e instanceof ModelFailure) throw e;
      if (e instanceof DeadlineExceeded) {
        throw new ModelFailure({ code: 'timeout', message: `Chrome's on-device model did not answer within ${Math.round(timeoutMs / 1000)} s. Try again, or choose a faster provider.` });
      }
      const why = e instanceof Error ? e.message : String(e);
      throw new ModelFailure({ code: 'bad_response', message: `Chrome's on-device model failed (${why.slice(0, 300)}). Try again, or choose another provider.` });
    } finally {
      stop.abort();
      session?.destroy?.();
    }
  }
  return { label: PROMPT_API_LABEL, complete };
}
