import { pluralOf, t } from '../../base/i18n.ts';
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
function waitText(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 90) return t(pluralOf(s) === 'one' ? 'copilot_seconds_one' : 'copilot_seconds_other', s);
  const m = Math.ceil(s / 60);
  return t(pluralOf(m) === 'one' ? 'time_minutes_one' : 'time_minutes_other', m);
}

/** Whether the fix is in Settings, per code; the words are the catalogue's `copilot_model_<code>` and `…_todo`. */
const IN_SETTINGS: Record<Exclude<ModelErrorCode, 'rate_limited'>, boolean> = {
  not_configured: true,
  bad_key: true,
  server_error: false,
  timeout: false,
  network: true,
  context_too_long: true,
  bad_response: true,
  unavailable: true,
};

export function modelErrorText(error: Pick<ModelError, 'code' | 'retry_after_ms'>): ModelErrorText {
  if (error.code !== 'rate_limited') return { sentence: t(`copilot_model_${error.code}`), todo: t(`copilot_model_${error.code}_todo`), settings: IN_SETTINGS[error.code] };
  const todo = error.retry_after_ms !== undefined ? t('copilot_model_rate_limited_wait', waitText(error.retry_after_ms)) : t('copilot_model_rate_limited_todo');
  return { sentence: t('copilot_model_rate_limited'), todo, settings: false };
}
