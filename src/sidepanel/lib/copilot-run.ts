import { t, uiLocale } from '../../base/i18n.ts';
import { modelErrorText } from './model-errors.ts';
import { said, saidWithRecord } from './phrases.ts';
import type { CopilotEnd, CopilotRun, CopilotStepStatus } from '../../protocol/copilot.ts';

/** The co-pilot's run as the panel words it (pure: the view only lays these out). */

/** The run can still move: the person may pause, stop or take over. */
export function isActive(run: CopilotRun): boolean {
  return run.status === 'running' || run.status === 'paused' || run.status === 'awaiting_approval' || run.status === 'awaiting_answer';
}

/** Merges a pushed run into the list (newest first), replacing the older copy of the same run. */
export function upsertRun(runs: readonly CopilotRun[], run: CopilotRun): CopilotRun[] {
  return [run, ...runs.filter((r) => r.run_id !== run.run_id)].sort((a, b) => b.started_at - a.started_at);
}

/** The run the Co-pilot view shows for a tab: its active run, else its most recent one. */
export function runForTab(runs: readonly CopilotRun[], tabId: number | undefined): CopilotRun | undefined {
  const mine = runs.filter((r) => r.tabId === tabId).sort((a, b) => b.started_at - a.started_at);
  return mine.find(isActive) ?? mine[0];
}

/** The path an action runs on, named as the person knows it. */
export function viaLabel(via: string | undefined): string {
  switch (via) {
    case 'site_contract':
    case 'webmcp':
    case 'adapter':
      return t(`action_path_${via}`);
    case 'dom':
    case 'legacy_inference':
      return 'DOM';
    default:
      return via ?? t('copilot_via_unknown');
  }
}

export const stepStatusLabel = (status: CopilotStepStatus): string => t(`copilot_step_${status}`);

export const runStatusLabel = (status: CopilotRun['status']): string => t(`copilot_run_${status}`);

/** "1:05" (minutes:seconds) up to an hour, "1 h 2 min" beyond. */
function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  return t('time_hours_minutes', Math.floor(s / 3600), Math.floor((s % 3600) / 60));
}

/** A token count with the UI language's digit grouping ("200,000", "200.000"). */
const tokens = (n: number): string => new Intl.NumberFormat(uiLocale()).format(n);

export interface Meter {
  label: string;
  value: number;
  max: number;
  text: string;
}

/** Steps, tokens and time against the run's budgets; `elapsedMs` may be fresher than the last push. */
export function budgetMeters(run: CopilotRun, elapsedMs = run.budgets.elapsed_ms): Meter[] {
  const b = run.budgets;
  const steps = run.steps.length;
  const time = Math.min(Math.max(elapsedMs, b.elapsed_ms), b.time_budget_ms);
  return [
    { label: t('copilot_meter_steps'), value: Math.min(steps, b.max_steps), max: b.max_steps, text: t('copilot_meter_of', steps, b.max_steps) },
    { label: t('copilot_meter_tokens'), value: Math.min(b.tokens_used, b.token_budget), max: b.token_budget, text: t('copilot_meter_of', tokens(b.tokens_used), tokens(b.token_budget)) },
    { label: t('copilot_meter_time'), value: time, max: b.time_budget_ms, text: t('copilot_meter_of', duration(time), duration(b.time_budget_ms)) },
  ];
}

type EndTone = 'ok' | 'warn' | 'bad' | 'neutral';

export interface EndText {
  tone: EndTone;
  title: string;
  /** The plain sentence under the title. */
  body: string;
  /** The worker's English record of a failure, where the sentence leaves part of it out (shown behind Details). */
  record?: string;
}

/**
 * The run's final answer, in plain words. The worker's `detail` is said in the person's language
 * from its phrase (lib/phrases.ts), else shown as the worker wrote it; the model's own words (its
 * claim, its question) as they are; a model error in the panel's words for its code.
 */
export function endText(end: CopilotEnd, run: Pick<CopilotRun, 'budgets' | 'steps' | 'model_error'>): EndText {
  if (end.kind === 'done') {
    const why = end.why === undefined ? undefined : said(end.why_said, end.why);
    return end.verified
      ? { tone: 'ok', title: t('copilot_done_verified'), body: end.claim }
      : { tone: 'warn', title: t('copilot_done_unverified'), body: why ? t('copilot_unverified_why', end.claim, why) : t('copilot_unverified', end.claim) };
  }
  const b = run.budgets;
  const detail = said(end.detail_said, end.detail);
  const body = (): string => {
    switch (end.reason) {
      case 'max_steps':
        return t('copilot_stop_max_steps', run.steps.length, b.max_steps, detail);
      case 'stuck':
        return t('copilot_stop_stuck', detail);
      case 'failures':
        return t('copilot_stop_failures', detail);
      case 'time_budget':
        return t('copilot_stop_time_budget', duration(b.time_budget_ms), detail);
      case 'token_budget':
        return t('copilot_stop_token_budget', tokens(b.tokens_used), tokens(b.token_budget), detail);
      case 'denied_by_person':
        return t('copilot_stop_denied_by_person', detail);
      case 'stopped_by_person':
      case 'taken_over':
      case 'tab_closed':
        return t(`copilot_stop_${end.reason}`);
      case 'model_error':
        // The panel's own sentence for the model's error code (CopilotModelError shows what to do).
        return run.model_error ? modelErrorText(run.model_error).sentence : detail;
      case 'ask_person':
      case 'error':
        return detail;
    }
  };
  const tone: EndTone =
    end.reason === 'ask_person' || end.reason === 'denied_by_person' || end.reason === 'stopped_by_person' || end.reason === 'taken_over' ? 'neutral' : end.reason === 'stuck' ? 'warn' : 'bad';
  // A failure of Steward's own is said in a sentence; what the error said stays one click away.
  const record = end.reason === 'error' ? saidWithRecord(end.detail_said, end.detail).record : undefined;
  return { tone, title: t(`copilot_stop_title_${end.reason}`), body: body().trim(), ...(record !== undefined ? { record } : {}) };
}
