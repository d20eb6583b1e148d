import type { ModelError, ModelErrorCode } from '../../protocol/copilot.ts';

/**
 * What the panel says when the language model could not answer: one plain sentence on what
 * happened and one on what to do, and whether the Settings view is where to do it. Pure, so
 * every code is unit-tested; the worker's own `message` is shown beside it as its detail.
 */
export interface ModelErrorText {
  sentence: string;
  todo: string;
  /** The fix is in Settings → Co-pilot (key, endpoint, model, budgets). */
  settings: boolean;
}

/** "30 seconds", "2 minutes": how long a rate limit asks to wait. */
export function waitText(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 90) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

const TEXT: Record<Exclude<ModelErrorCode, 'rate_limited'>, ModelErrorText> = {
  not_configured: { sentence: 'No language model is set up for the co-pilot yet.', todo: 'Choose a provider, endpoint and model in Settings → Co-pilot.', settings: true },
  bad_key: { sentence: 'The model’s server refused the API key.', todo: 'Check the key in Settings → Co-pilot, save it again, and start the run again.', settings: true },
  server_error: { sentence: 'The model’s server had an error of its own.', todo: 'Try again in a moment; if it keeps failing, check the provider’s status page.', settings: false },
  timeout: { sentence: 'The model took too long to answer.', todo: 'Try again; a smaller or local model may answer faster.', settings: false },
  network: { sentence: 'Steward could not reach the model’s server.', todo: 'Check your network connection and the endpoint URL in Settings → Co-pilot.', settings: true },
  context_too_long: {
    sentence: 'The page and the run’s history were too long for this model.',
    todo: 'Try a shorter goal, a simpler page, or a model with a larger context window.',
    settings: true,
  },
  bad_response: { sentence: 'The model answered with something Steward could not use.', todo: 'Try again, or choose a model that follows JSON instructions better.', settings: true },
  unavailable: { sentence: 'The chosen model is not available in this browser or on this server.', todo: 'Check the model name, or choose another provider in Settings → Co-pilot.', settings: true },
};

export function modelErrorText(error: Pick<ModelError, 'code' | 'retry_after_ms'>): ModelErrorText {
  if (error.code !== 'rate_limited') return TEXT[error.code];
  const wait = error.retry_after_ms !== undefined ? `Wait ${waitText(error.retry_after_ms)}` : 'Wait a little';
  return { sentence: 'The model’s server says too many requests were sent (rate limit).', todo: `${wait}, then start the run again; or raise the limit with your provider.`, settings: false };
}
