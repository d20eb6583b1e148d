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
      return 'site contract';
    case 'webmcp':
      return 'WebMCP tool';
    case 'adapter':
      return 'adapter';
    case 'dom':
    case 'legacy_inference':
      return 'DOM';
    default:
      return via ?? 'unknown path';
  }
}

export const STEP_STATUS_LABEL: Record<CopilotStepStatus, string> = {
  thinking: 'asking the model…',
  running: 'running…',
  awaiting_approval: 'waiting for your approval',
  succeeded: 'succeeded',
  failed: 'failed',
  invalid: 'invalid reply',
  denied: 'Denied by you',
  stopped: 'Stopped by you',
  awaiting_answer: 'waiting for your answer',
  answered: 'answered by you',
  final: 'final answer',
};

export const RUN_STATUS_LABEL: Record<CopilotRun['status'], string> = {
  running: 'Running',
  paused: 'Paused',
  awaiting_approval: 'Waiting for your approval',
  awaiting_answer: 'Waiting for your answer',
  finished: 'Finished',
  stopped: 'Stopped',
};

/** "1:05" (minutes:seconds) up to an hour, "1 h 2 min" beyond. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

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
    { label: 'Steps', value: Math.min(steps, b.max_steps), max: b.max_steps, text: `${steps} of ${b.max_steps}` },
    { label: 'Tokens', value: Math.min(b.tokens_used, b.token_budget), max: b.token_budget, text: `${b.tokens_used.toLocaleString('en-US')} of ${b.token_budget.toLocaleString('en-US')}` },
    { label: 'Time', value: time, max: b.time_budget_ms, text: `${duration(time)} of ${duration(b.time_budget_ms)}` },
  ];
}

type EndTone = 'ok' | 'warn' | 'bad' | 'neutral';

export interface EndText {
  tone: EndTone;
  title: string;
  /** The plain sentence under the title. */
  body: string;
}

const STOP_TITLE: Record<Extract<CopilotEnd, { kind: 'stopped' }>['reason'], string> = {
  max_steps: 'Stopped: it used all its steps',
  stuck: 'Stopped: the co-pilot seems stuck',
  failures: 'Stopped after repeated failures',
  time_budget: 'Stopped: out of time',
  token_budget: 'Stopped: out of tokens',
  ask_person: 'The co-pilot has a question for you',
  model_error: 'Stopped: the language model could not answer',
  denied_by_person: 'Denied by you',
  stopped_by_person: 'Stopped by you',
  taken_over: 'You took over',
  tab_closed: 'Stopped: the tab was closed',
  error: 'Stopped by an error',
};

/** The run's final answer, in plain words. */
export function endText(end: CopilotEnd, run: Pick<CopilotRun, 'budgets' | 'steps'>): EndText {
  if (end.kind === 'done') {
    return end.verified
      ? { tone: 'ok', title: 'Done, verified', body: end.claim }
      : { tone: 'warn', title: 'Done, but not verified', body: `The co-pilot says: “${end.claim}” Steward could not confirm it${end.why ? `: ${end.why}` : ''}. Please check the page yourself.` };
  }
  const b = run.budgets;
  const body: Record<typeof end.reason, string> = {
    max_steps: `It took ${run.steps.length} of at most ${b.max_steps} steps without finishing. ${end.detail}`,
    stuck: `The co-pilot seems stuck (${end.detail}). Please take a look at the page and start again with a clearer goal, or finish by hand.`,
    failures: `Its last actions failed one after the other. ${end.detail}`,
    time_budget: `It ran out of its ${duration(b.time_budget_ms)} time budget. ${end.detail}`,
    token_budget: `It used ${b.tokens_used.toLocaleString('en-US')} of its ${b.token_budget.toLocaleString('en-US')} tokens. ${end.detail}`,
    ask_person: end.detail,
    model_error: end.detail,
    denied_by_person: `${end.detail} Nothing more will be done; the page stays as it is.`,
    stopped_by_person: 'You stopped the run. Nothing more will be done; the page stays as it is.',
    taken_over: 'The run is stopped and the tab is left exactly as it is, for you to continue by hand.',
    tab_closed: 'The tab the co-pilot worked in was closed.',
    error: end.detail,
  };
  const tone: EndTone =
    end.reason === 'ask_person' || end.reason === 'denied_by_person' || end.reason === 'stopped_by_person' || end.reason === 'taken_over' ? 'neutral' : end.reason === 'stuck' ? 'warn' : 'bad';
  return { tone, title: STOP_TITLE[end.reason], body: body[end.reason].trim() };
}
