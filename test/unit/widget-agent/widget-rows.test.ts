import { describe, expect, it } from 'vitest';
import { failureKind, failureLines, widgetRows } from '../../../bench/widget-rows.ts';
import { BenchRow } from '../../../bench/bench-row.ts';
import { WIDGET_TASKS } from '../../../sites/lab/widgets/tasks.ts';
import type { EpisodeOutcome } from '../../../test/harness/widget-agent.ts';

/** The coverage.* rows from episodes: counts, means and medians, and every failure named within a note's room. */

const task = (id: string) => WIDGET_TASKS.find((t) => t.id === id)!;
const outcome = (id: string, view: 'steward' | 'anchor', solved: boolean, extra: Partial<EpisodeOutcome> = {}): EpisodeOutcome => ({
  task: task(id),
  view,
  episode: `ep-${view}-${id}`,
  solved,
  ...(solved ? {} : { reason: `${view} could not: ${'x'.repeat(400)}` }),
  run: { done: solved, steps: [{ step: 'click', ms: view === 'steward' ? 900 : 100, asked: view === 'steward' }], looks: [], notes: [] },
  approvals: view === 'steward' ? 1 : 0,
  tokens: view === 'steward' ? [80, 100] : [60],
  ...extra,
});

describe('the widget rows', () => {
  const outcomes = [
    outcome('jq-tabs', 'steward', true),
    outcome('jq-tabs', 'anchor', true),
    outcome('v-div-tabs', 'steward', false),
    outcome('v-div-tabs', 'anchor', true),
    outcome('v-canvas', 'steward', false),
    outcome('v-canvas', 'anchor', false),
  ];
  const rows = widgetRows(outcomes);
  const row = (metric: string, c: string) => rows.find((r) => r.metric === metric && r.case === c);

  it('count the tasks each view solved, overall and per kit, against the anchor', () => {
    expect(row('coverage.tasks_solved', 'widgets')).toMatchObject({ value: 1, anchor: 'playwright.ariaSnapshot', anchor_value: 2 });
    expect(row('coverage.tasks_solved', 'widgets.vanilla')).toMatchObject({ value: 0, anchor_value: 1 });
    expect(row('coverage.tokens_per_look', 'widgets')).toMatchObject({ value: 90, anchor_value: 60 });
    expect(row('coverage.step_ms', 'widgets')).toMatchObject({ value: 900, anchor_value: 100 });
    expect(row('coverage.approvals_per_task', 'widgets')).toMatchObject({ value: 1 });
  });

  it('time the steps nobody was asked about against the same steps on the anchor, apart from the person’s approvals', () => {
    const steps = (view: 'steward' | 'anchor', ms: number[], asked: boolean[] = []) => ({
      done: true,
      steps: ms.map((m, i) => ({ step: `click ${i}`, ms: m, asked: asked[i] ?? false })),
      looks: [],
      notes: [],
    });
    const timed = widgetRows([
      // Steward: step 0 asked (900 ms with the person), steps 1 to 3 not; the anchor's step 0 is left out with it.
      outcome('jq-tabs', 'steward', true, { run: steps('steward', [900, 150, 170, 160], [true]) }),
      outcome('jq-tabs', 'anchor', true, { run: steps('anchor', [50, 100, 120, 110]) }),
    ]);
    expect(timed.find((r) => r.metric === 'coverage.step_ms' && r.case === 'widgets')).toMatchObject({ value: 160, anchor_value: 100 });
    expect(timed.find((r) => r.metric === 'coverage.step_ms' && r.case === 'widgets.unasked')).toMatchObject({ value: 160, anchor_value: 110, note: expect.stringContaining('3 steps') });
    // Every step asked: no such row rather than a median of nothing.
    expect(rows.find((r) => r.case === 'widgets.unasked')).toBeUndefined();
  });

  it('give every page its own tokens-per-look row against the anchor, so no page hides behind the mean', () => {
    for (const id of ['jq-tabs', 'v-div-tabs', 'v-canvas']) expect(row('coverage.tokens_per_look', id)).toMatchObject({ value: 90, anchor: 'playwright.ariaSnapshot', anchor_value: 60 });
  });

  it('give each task a view failed its own row, with both reasons within a note, and valid rows throughout', () => {
    expect(row('coverage.task_solved', 'jq-tabs')).toBeUndefined();
    expect(row('coverage.task_solved', 'v-div-tabs')).toMatchObject({ value: 0, anchor_value: 1, note: expect.stringMatching(/^steward \[other\]: steward could not/) });
    expect(row('coverage.task_solved', 'v-canvas')?.note).toMatch(/^steward \[other\]: .* \| anchor \[other\]: anchor could not/);
    for (const r of rows) expect(BenchRow.safeParse(r).success, `${r.metric} ${r.case}`).toBe(true);
    expect(failureLines(outcomes)).toEqual([
      'steward: 2 failed — other 2',
      expect.stringMatching(/^ {2}steward \[other\] v-div-tabs \(tabs, vanilla\): steward could not/),
      expect.stringMatching(/^ {2}steward \[other\] v-canvas \(canvas, vanilla\)/),
      'anchor: 1 failed — other 1',
      expect.stringMatching(/^ {2}anchor \[other\] v-canvas \(canvas, vanilla\)/),
    ]);
  });

  it('sort reasons into kinds one can act on', () => {
    expect(failureKind('click "Reviews": no ref for "Reviews": the look shows it only as text "Reviews"')).toBe('no ref');
    expect(failureKind('click "Lisbon, Portugal": nothing named "Lisbon, Portugal" in the view ("Lisbon, Portugal")')).toBe('not in the view');
    expect(failureKind('press ArrowRight on the slider: no slider in the view (the slider)')).toBe('not in the view');
    expect(failureKind('click the large red circle: no shapes in the view (the large red circle)')).toBe('no shapes');
    expect(failureKind('click "Publish": INVALID_INPUT: Invalid input: input.ref: element e5 is covered')).toBe('INVALID_INPUT');
    expect(failureKind('upload "Attachment": FILE_CHOICE_REQUIRED: Refused: only the person may choose a file')).toBe('FILE_CHOICE_REQUIRED');
    expect(failureKind('check "Window": Playwright: locator.setChecked: Timeout 3000ms exceeded.')).toBe('Playwright');
    expect(failureKind(`the plan ran to its end, but the page's first answer was {"size":"Medium"}`)).toBe('wrong answer');
  });
});
