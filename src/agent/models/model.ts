import type { ModelError, ModelProvider } from '../../protocol/copilot.ts';
import type { Phrase } from '../../protocol/phrase.ts';
import type { ChatMessage } from '../ports.ts';

/**
 * What the co-pilot needs from a language model, whatever its wire format (OpenAI-compatible,
 * Anthropic Messages, Chrome's Prompt API). Providers are pure: `fetch` and the Prompt API's
 * global are injected, so unit tests drive them against local servers.
 */

export interface ModelConfig {
  provider: ModelProvider;
  /** Base URL (`…/v1` for OpenAI-compatible servers); empty for the Prompt API. */
  endpoint: string;
  model: string;
  /** Kept by the worker in trusted storage; never logged, never in an error message. */
  key?: string;
}

export interface LanguageModelClient {
  /** How the panel names it, e.g. "gpt-4o-mini at api.openai.com" or "Demo model (scripted)". */
  label: string;
  /** `label` as a phrase for the panel, where Steward's own words name it ("at", "built-in model"). */
  label_said?: Phrase;
  /**
   * The model's whole reply, as text; throws ModelFailure. With `onText`, the reply is streamed
   * where the provider can (OpenAI-compatible and Anthropic servers), and `onText` gets the reply
   * so far each time it grows.
   */
  complete(messages: ChatMessage[], signal?: AbortSignal, onText?: (soFar: string) => void): Promise<string>;
}

/** A model call that failed, with a plain sentence the panel shows as is. */
export class ModelFailure extends Error {
  constructor(readonly error: ModelError) {
    super(error.message);
    this.name = 'ModelFailure';
  }
}
