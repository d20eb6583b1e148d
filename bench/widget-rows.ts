import type { EpisodeOutcome, ViewName } from '../test/e2e/widget-agent.ts';
import { median, type Row } from './report.ts';

/**
 * The coverage.* rows from both views' widget episodes (pure): tasks solved overall and per kit,
 * tokens per look, the median step, approvals, and one coverage.task_solved row per task either
 * view failed, whose note names each failure's reason.
 */

const ANCHOR = 'playwright.ariaSnapshot';
/** BenchRow notes hold 600 characters: each view's reason gets its half. */
const REASON_CHARS = 290;

const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const solvedCount = (outcomes: EpisodeOutcome[]) => outcomes.filter((o) => o.solved).length;
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function widgetRows(outcomes: EpisodeOutcome[]): Row[] {
  const of = (view: ViewName) => outcomes.filter((o) => o.view === view);
  const steward = of('steward');
  const anchor = of('anchor');
  const total = new Set(outcomes.map((o) => o.task.id)).size;
  const rows: Row[] = [
    {
      metric: 'coverage.tasks_solved',
      case: 'widgets',
      value: solvedCount(steward),
      unit: 'tasks',
      better: 'higher',
      anchor: ANCHOR,
      anchor_value: solvedCount(anchor),
      note: `of ${total} widget tasks, each solved when the lab's first answer is the expected one; Steward through the MCP bridge (steward_observe text, steward_execute, the person approving every card), the anchor from ariaSnapshot with Playwright acting by role and name. Each failure: a coverage.task_solved row.`,
    },
  ];
  for (const kit of new Set(outcomes.map((o) => o.task.kit))) {
    const inKit = (o: EpisodeOutcome) => o.task.kit === kit;
    rows.push({
      metric: 'coverage.tasks_solved',
      case: `widgets.${kit}`,
      value: solvedCount(steward.filter(inKit)),
      unit: 'tasks',
      better: 'higher',
      anchor: ANCHOR,
      anchor_value: solvedCount(anchor.filter(inKit)),
    });
  }
  const tokens = (os: EpisodeOutcome[]) => mean(os.flatMap((o) => o.tokens));
  rows.push({
    metric: 'coverage.tokens_per_look',
    case: 'widgets',
    value: tokens(steward),
    unit: 'tokens',
    better: 'lower',
    anchor: ANCHOR,
    anchor_value: tokens(anchor),
    note: "mean gpt-tokenizer tokens of every look an episode read: Steward's whole steward_observe text (frame and state_version line included) against the ariaSnapshot of the same page.",
  });
  const stepMs = (os: EpisodeOutcome[]) => median(os.flatMap((o) => o.run.steps.map((s) => s.ms)));
  rows.push({
    metric: 'coverage.step_ms',
    case: 'widgets',
    value: stepMs(steward),
    unit: 'ms',
    better: 'lower',
    anchor: ANCHOR,
    anchor_value: stepMs(anchor),
    note: "median wall time of one agent step: Steward = steward_execute until its result (the person's approval given on the side panel's channel as soon as a card is there) + the next steward_observe; the anchor = the Playwright action + the next ariaSnapshot.",
  });
  rows.push({
    metric: 'coverage.approvals_per_task',
    case: 'widgets',
    value: mean(steward.map((o) => o.approvals)),
    unit: 'approvals',
    better: 'lower',
    note: 'cards the person approved per Steward episode (mean); the anchor asks nobody.',
  });
  for (const id of new Set(outcomes.map((o) => o.task.id))) {
    const s = steward.find((o) => o.task.id === id);
    const a = anchor.find((o) => o.task.id === id);
    if (s?.solved !== false && a?.solved !== false) continue;
    const why = [s && !s.solved ? `steward: ${cut(s.reason ?? '?', REASON_CHARS)}` : '', a && !a.solved ? `anchor: ${cut(a.reason ?? '?', REASON_CHARS)}` : ''].filter(Boolean).join(' | ');
    rows.push({
      metric: 'coverage.task_solved',
      case: id,
      value: s?.solved ? 1 : 0,
      unit: 'solved',
      better: 'higher',
      ...(a ? { anchor: ANCHOR, anchor_value: a.solved ? 1 : 0 } : {}),
      note: why,
    });
  }
  return rows;
}

/** Every failure on a line, grouped by view: `steward jq-slider (slider, jquery-ui): reason`. */
export function failureLines(outcomes: EpisodeOutcome[]): string[] {
  const failed = outcomes.filter((o) => !o.solved);
  return [...failed.filter((o) => o.view === 'steward'), ...failed.filter((o) => o.view === 'anchor')].map((o) => `${o.view} ${o.task.id} (${o.task.widget}, ${o.task.kit}): ${o.reason}`);
}
