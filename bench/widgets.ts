import { WIDGET_TASKS } from '../sites/lab/widgets/tasks.ts';
import { anchorSide, runTask, stewardSide, type EpisodeOutcome } from '../test/harness/widget-agent.ts';
import type { Row } from './report.ts';
import { failureLines, widgetRows } from './widget-rows.ts';

/**
 * coverage.*: the widget tasks (sites/lab/widgets/tasks.ts) done by one scripted agent
 * (sites/model/widget-agent/) twice in the same run, on the same lab server: once reading only
 * Steward's steward_observe text and acting only through steward_execute (a paired MCP client of
 * the real bridge, the person approving each card), once reading only Playwright's ariaSnapshot
 * and acting by role and name in a plain Chromium (the anchor). A task counts as solved when the
 * first answer the lab received for the episode is the expected one. Every failure is named.
 */

/** `--quick`: a dozen tasks, one per kind of difficulty. */
const QUICK = [
  'jq-datepicker',
  'jq-tabs',
  'jq-dialog',
  'mui-slider',
  'mui-menu',
  'native-select-multiple',
  'native-file',
  'v-div-tabs',
  'v-covered-banner',
  'v-listbox',
  'v-svg-large-red',
  'v-quantity',
];

export async function widgetBench(lab: string, options: { quick: boolean; log?: (line: string) => void }): Promise<{ rows: Row[]; failures: string[] }> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  await fetch(new URL('/widgets/__reset', lab), { method: 'POST' });
  const tasks = options.quick ? WIDGET_TASKS.filter((t) => QUICK.includes(t.id)) : WIDGET_TASKS;
  const runId = Date.now().toString(36);
  const steward = await stewardSide(lab);
  const anchor = await anchorSide().catch(async (error: unknown) => {
    await steward.close();
    throw error;
  });
  const outcomes: EpisodeOutcome[] = [];
  const started = performance.now();
  try {
    // Task by task, each side in turn: both meet the machine in the same state.
    for (const task of tasks) {
      for (const [view, side] of [
        ['steward', steward],
        ['anchor', anchor],
      ] as const) {
        const start = performance.now();
        const outcome = await runTask(side, view, task, lab, runId);
        outcomes.push(outcome);
        log(`  ${view.padEnd(7)} ${task.id.padEnd(24)} ${String(Math.round(performance.now() - start)).padStart(6)} ms  ${outcome.solved ? 'solved' : `FAILED: ${outcome.reason}`}`);
      }
    }
  } finally {
    await steward.close().catch(() => undefined);
    await anchor.close().catch(() => undefined);
  }
  log(`  ${outcomes.length} episodes in ${Math.round((performance.now() - started) / 1000)} s`);
  return { rows: widgetRows(outcomes), failures: failureLines(outcomes) };
}
