import { DeadlineExceeded, withDeadline } from '../../base/deadline.ts';
import type { ChatMessage } from '../ports.ts';
import { abortError } from './http.ts';
import { ModelFailure, type LanguageModelClient } from './model.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';
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

const unavailable = (problem: Problem) => new ModelFailure({ code: 'unavailable', message: problem.text, message_said: problem.said });

/** Why the model cannot be used: the English for logs, and the same for the panel in the person's language. */
export interface Problem {
  text: string;
  said: Phrase;
}

/** Why the Prompt API cannot answer now, or undefined when it can. */
export async function promptApiProblem(value: unknown): Promise<Problem | undefined> {
  const api = asPromptApi(value);
  if (!api)
    return {
      text: 'This Chrome has no built-in Prompt API. Use a recent Chrome with the on-device model, or choose another provider in Settings → Co-pilot.',
      said: phrase('prompt_api_missing'),
    };
  let availability: string;
  try {
    availability = await api.availability(LANGUAGES);
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    return { text: `Chrome could not say whether its on-device model is available (${error}). Choose another provider in Settings → Co-pilot.`, said: phrase('prompt_api_unknown', { error }) };
  }
  if (availability === 'available') return undefined;
  if (availability === 'downloadable') return { text: 'Click Prepare in Settings → Co-pilot: Chrome needs a click to download the on-device model.', said: phrase('prompt_api_downloadable') };
  if (availability === 'downloading') return { text: 'Chrome is still downloading its on-device model. Try again when the download has finished.', said: phrase('prompt_api_downloading') };
  return { text: "Chrome's on-device model is unavailable on this device (hardware, storage or policy). Choose another provider in Settings → Co-pilot.", said: phrase('prompt_api_unavailable') };
}

export function promptApiClient(value: unknown, timeoutMs: number): LanguageModelClient {
  async function complete(messages: ChatMessage[], signal?: AbortSignal): Promise<string> {
    const problem = await promptApiProblem(value);
    if (problem) throw unavailable(problem);
    const api = asPromptApi(value)!;
    const last = messages[messages.length - 1];
    if (!last) throw new ModelFailure({ code: 'bad_response', message: 'Steward had nothing to ask the model.', message_said: phrase('prompt_api_nothing_to_ask') });
    const stop = new AbortController();
    const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    let session: PromptSession | undefined;
    try {
      const work = (async () => {
        session = await api.create({ ...LANGUAGES, initialPrompts: messages.slice(0, -1), signal: combined });
        return session.prompt(last.content, { responseConstraint: STEP_SCHEMA, signal: combined });
      })();
      const text = await withDeadline(work, timeoutMs, "Chrome's on-device model");
      if (!text.trim()) throw new ModelFailure({ code: 'bad_response', message: "Chrome's on-device model gave an empty answer. Try again.", message_said: phrase('prompt_api_empty') });
      return text;
    } catch (e) {
      if (signal?.aborted) throw abortError();
      if (e instanceof ModelFailure) throw e;
      if (e instanceof DeadlineExceeded) {
        const seconds = Math.round(timeoutMs / 1000);
        throw new ModelFailure({
          code: 'timeout',
          message: `Chrome's on-device model did not answer within ${seconds} s. Try again, or choose a faster provider.`,
          message_said: phrase('prompt_api_timeout', { seconds }),
        });
      }
      const why = e instanceof Error ? e.message : String(e);
      throw new ModelFailure({
        code: 'bad_response',
        message: `Chrome's on-device model failed (${why.slice(0, 300)}). Try again, or choose another provider.`,
        message_said: phrase('prompt_api_failed', { error: why.slice(0, 300) }),
      });
    } finally {
      stop.abort();
      session?.destroy?.();
    }
  }
  return { label: PROMPT_API_LABEL, label_said: phrase('model_label_prompt_api'), complete };
}
