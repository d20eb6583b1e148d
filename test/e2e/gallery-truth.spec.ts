import { loadGalleryLabels } from '../../sites/lab/gallery/label.ts';
import { describeMisses, readBaseline, recordBaseline, BASELINE_FILE } from '../../bench/truth.ts';
import { compareToBaseline, truthMetrics } from '../../bench/truth-scoring.ts';
import { runGallery } from '../harness/gallery-truth.ts';
import { test, expect } from '../harness/fixtures.ts';

/**
 * The labelled gallery (issue 14) must not get less truthful: every check that passed when the
 * baseline was recorded (test/e2e/gallery-baseline.json) still passes. A newly passing check is
 * printed so the baseline gets recorded again: `GALLERY_RECORD=1 npx playwright test gallery-truth`.
 */

const RECORD = process.env.GALLERY_RECORD === '1';

test('no labelled gallery page got less truthful than the recorded baseline', async ({ steward, sites }) => {
  test.setTimeout(360_000);
  const labels = loadGalleryLabels();
  expect(labels.length, 'labelled gallery pages in sites/lab/gallery/labels').toBeGreaterThan(0);

  const { scores, ms } = await runGallery(steward, sites.urls.lab, labels);
  const metrics = truthMetrics(scores);
  console.log(`gallery: ${labels.length} pages in ${(ms / 1000).toFixed(1)} s; ${JSON.stringify(metrics)}`);
  process.stderr.write(describeMisses(scores));

  if (RECORD) {
    recordBaseline(scores);
    console.log(`recorded ${BASELINE_FILE}`);
    return;
  }
  const diff = compareToBaseline(readBaseline(), scores);
  if (diff.improvements.length) console.log(`now passing (record the baseline again):\n  ${diff.improvements.join('\n  ')}`);
  if (diff.newPages.length) console.log(`not in the baseline yet (record it again): ${diff.newPages.join(', ')}`);
  if (diff.missingPages.length) console.log(`in the baseline but no longer labelled: ${diff.missingPages.join(', ')}`);
  const why = (line: string) => {
    const slug = line.split(':')[0]!;
    return `${line}\n      ${scores.find((s) => s.slug === slug)?.misses.join('\n      ') ?? ''}`;
  };
  expect(diff.regressions, `regressions from the baseline:\n  ${diff.regressions.map(why).join('\n  ')}`).toEqual([]);
});
