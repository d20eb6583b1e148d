import type { EpisodeOutcome, ViewName } from '../test/harness/widget-agent.ts';
import { median, type Row } from './report.ts';

/**
 * The coverage.* rows from both views' widget episodes (pure): tasks solved overall and per kit,
 * tokens per look (overall and per task page), the median step, approvals, and one coverage.task_solved row per task either
 * view failed, whose note names each failure's reason.
 */

const ANCHOR = 'playwright.ariaSnapshot';
/** BenchRow notes hold 600 characters: each view's reason gets its half. */
const REASON_CHARS = 270;

/**
 * What kind of failure a reason names, for sorting the list into work: `no ref` (the look shows
 * the text but nothing to act on), `not in the view`, `no shapes`, a Steward refusal by its code,
 * `Playwright` (the anchor's action failed), `never reached`, `wrong answer`, `no answer`.
 */
export function failureKind(reason: string): string {
  if (/: no ref for /.test(reason)) return 'no ref';
  if (/no shapes in the view|among the shapes the view lists/.test(reason)) return 'no shapes';
  if (/: (nothing named |no control without a name|nothing in the view says|no [\w-]+ in the view )/.test(reason)) return 'not in the view';
  const code = /: ([A-Z][A-Z_]{3,}): /.exec(reason)?.[1];
  if (code) return code;
  if (/: Playwright: /.test(reason)) return 'Playwright';
  if (/: still not .* after \d+ times/.test(reason)) return 'never reached';
  if (/first answer was/.test(reason)) return 'wrong answer';
  if (/sent no answer/.test(reason)) return 'no answer';
  if (/over the bound of/.test(reason)) return 'step bound';
  return 'other';
}

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
  // Per page: the goal is fewer tokens than the anchor on every one, not only on the mean.
  for (const id of new Set(outcomes.map((o) => o.task.id))) {
    const s = steward.filter((o) => o.task.id === id);
    const a = anchor.filter((o) => o.task.id === id);
    if (s.length === 0 || s.every((o) => o.tokens.length === 0)) continue;
    rows.push({
      metric: 'coverage.tokens_per_look',
      case: id,
      value: tokens(s),
      unit: 'tokens',
      better: 'lower',
      ...(a.some((o) => o.tokens.length > 0) ? { anchor: ANCHOR, anchor_value: tokens(a) } : {}),
    });
  }
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
  // Like with like: the steps nobody was asked about on Steward's side, against the same steps (task, place in the plan) on the anchor's.
  const unasked = new Set(steward.flatMap((o) => o.run.steps.flatMap((s, i) => (s.asked ? [] : [`${o.task.id} ${i} ${s.step}`]))));
  const sameSteps = (os: EpisodeOutcome[]) => median(os.flatMap((o) => o.run.steps.flatMap((s, i) => (unasked.has(`${o.task.id} ${i} ${s.step}`) ? [s.ms] : []))));
  if (unasked.size > 0)
    rows.push({
      metric: 'coverage.step_ms',
      case: 'widgets.unasked',
      value: sameSteps(steward),
      unit: 'ms',
      better: 'lower',
      anchor: ANCHOR,
      anchor_value: sameSteps(anchor),
      note: `median over the ${unasked.size} steps no person was asked to approve on Steward's side, and the same steps (task, place in the plan) on the anchor's: what a step costs when only the machines are waiting.`,
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
    const said = (o: EpisodeOutcome) => `${o.view} [${failureKind(o.reason ?? '')}]: ${cut(o.reason ?? '?', REASON_CHARS)}`;
    const why = [s && !s.solved ? said(s) : '', a && !a.solved ? said(a) : ''].filter(Boolean).join(' | ');
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

/**
 * Every failure on a line, by view and kind (`steward [no ref] v-div-tabs (tabs, vanilla): …`),
 * after a count per kind: the list to work through once the capture lands.
 */
export function failureLines(outcomes: EpisodeOutcome[]): string[] {
  const lines: string[] = [];
  for (const view of ['steward', 'anchor'] as const) {
    const failed = outcomes.filter((o) => o.view === view && !o.solved).map((o) => ({ o, kind: failureKind(o.reason ?? '') }));
    if (failed.length === 0) continue;
    const counts = new Map<string, number>();
    for (const f of failed) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
    const kinds = [...counts].sort((a, b) => b[1] - a[1]);
    lines.push(`${view}: ${failed.length} failed — ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}`);
    for (const [kind] of kinds) for (const { o } of failed.filter((f) => f.kind === kind)) lines.push(`  ${view} [${kind}] ${o.task.id} (${o.task.widget}, ${o.task.kit}): ${o.reason}`);
  }
  return lines;
}
