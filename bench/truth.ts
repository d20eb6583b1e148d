/**
 * `truth.*` rows of `npm run bench` (DESIGN §10): how truthful Steward is on the labelled page
 * gallery (sites/lab/gallery), and the recorded baseline the e2e regression check compares with.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadGalleryLabels } from '../sites/lab/gallery/label.ts';
import type { StewardBrowser } from '../test/harness/browser.ts';
import { runGallery } from '../test/harness/gallery-truth.ts';
import type { Row } from './report.ts';
import { baselineOf, TruthBaseline, truthMetrics, type PageScore } from './truth-scoring.ts';

export const BASELINE_FILE = join(import.meta.dirname, '..', 'test', 'harness', 'gallery-baseline.json');

export function readBaseline(file = BASELINE_FILE): TruthBaseline {
  return TruthBaseline.parse(JSON.parse(readFileSync(file, 'utf8')));
}

export function recordBaseline(scores: readonly PageScore[], file = BASELINE_FILE): void {
  writeFileSync(file, `${JSON.stringify(baselineOf(scores), null, 2)}\n`);
}

/** Each page's misses, one line each (for stderr). */
export function describeMisses(scores: readonly PageScore[]): string {
  const failing = scores.filter((s) => s.misses.length > 0);
  if (failing.length === 0) return `truth: all ${scores.length} gallery pages right\n`;
  return `truth: ${failing.length} of ${scores.length} gallery pages missed something\n${failing.map((s) => `  ${s.slug} (${s.kit}):\n${s.misses.map((m) => `    - ${m}\n`).join('')}`).join('')}`;
}

export function truthRows(scores: readonly PageScore[]): Row[] {
  const m = truthMetrics(scores);
  const planted = scores.reduce((n, s) => n + Object.keys(s.checks.conflicts).length, 0);
  const changes = scores.filter((s) => s.checks.version_change !== null).length;
  const row = (metric: string, value: number, unit: string, better: Row['better'], note: string): Row => ({ metric: `truth.${metric}`, case: 'gallery', value, unit, better, note });
  return [
    row('resource_accuracy', m.resource_accuracy, 'ratio', 'higher', `pages whose resource Steward got right (or said it could not tell where the label names none), of ${scores.length}`),
    row('state_accuracy', m.state_accuracy, 'ratio', 'higher', `pages whose state Steward got right (unknown where the label names none), of ${scores.length}`),
    row('conflict_recall', m.conflict_recall, 'ratio', 'higher', `planted conflicts reported, of ${planted}`),
    row('version_false_change', m.version_false_change, 'count', 'lower', `pages whose state_version moved during 3 s with no action, of ${scores.length}`),
    row('version_missed_change', m.version_missed_change, 'count', 'lower', `real changes (made with Playwright) that left state_version where it was, of ${changes}`),
  ];
}

/** Runs the gallery in `browser` (Steward built with test hooks, the lab site allowed) and returns its rows; `record` also rewrites the baseline. */
export async function truthBench(browser: StewardBrowser, labOrigin: string, options: { record?: boolean } = {}): Promise<Row[]> {
  const labels = loadGalleryLabels();
  if (labels.length === 0) throw new Error('the gallery has no labelled pages (sites/lab/gallery/labels)');
  const { scores, ms } = await runGallery(browser, labOrigin, labels);
  process.stderr.write(`truth: ${labels.length} pages in ${(ms / 1000).toFixed(1)} s\n${describeMisses(scores)}`);
  if (options.record) {
    recordBaseline(scores);
    process.stderr.write(`truth: recorded ${BASELINE_FILE}\n`);
  }
  return truthRows(scores);
}
