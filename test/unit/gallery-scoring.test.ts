import { describe, expect, it } from 'vitest';
import { GalleryLabel } from '../../sites/lab/gallery/label.ts';
import { baselineOf, compareToBaseline, scorePage, truthMetrics, TruthBaseline, type ObservedView, type PageRun } from '../../bench/truth-scoring.ts';
import { truthRows } from '../../bench/truth.ts';

const checkout = GalleryLabel.parse({
  slug: 'mui-checkout',
  path: '/gallery/react/mui-checkout',
  kit: 'react-mui',
  what: 'A checkout whose order number is only in the heading',
  resource: { type: 'order', id: 'ORD-2003' },
  state: 'awaiting_payment',
  conflicts: ['canvas_total_not_observed'],
  clickable: ['Pay now'],
  unreachable: ['Hidden coupon'],
  churn: ['countdown'],
  real_change: { role: 'button', name: 'Increase quantity', what: 'quantity 2 → 3' },
});

const landing = GalleryLabel.parse({
  slug: 'landing',
  path: '/gallery/html/landing',
  kit: 'html',
  what: 'A page about no resource at all',
  resource: null,
  state: null,
  conflicts: [],
  clickable: [],
  churn: ['ticker'],
});

/** What a truthful observer reports on the checkout page. */
function truthful(overrides: Partial<ObservedView> = {}): ObservedView {
  return {
    resource: { type: 'order', id: 'ORD-2003' },
    resourceUnknown: false,
    state: 'awaiting_payment',
    conflicts: ['canvas_total_not_observed'],
    version: 'fp-aaaaaa',
    elements: [
      { ref: 'e1', name: 'Pay now', role: 'button' },
      { ref: 'e2', name: 'Hidden coupon', role: 'button' },
    ],
    actions: [{ action: 'dom.click', target_ref: 'e1' }],
    tools: [],
    ...overrides,
  };
}

const checkoutRun = (first: ObservedView, idleVersion = first.version, changedVersion: string | number = 'fp-bbbbbb'): PageRun => ({
  label: checkout,
  first,
  idle: { ...first, version: idleVersion },
  changed: { ...first, version: changedVersion },
});

describe('scoring one gallery page', () => {
  it('passes every check when Steward reports what the label says', () => {
    const score = scorePage(checkoutRun(truthful()));
    expect(score.misses).toEqual([]);
    expect(score.checks).toEqual({
      resource: true,
      state: true,
      conflicts: { canvas_total_not_observed: true },
      clickable: { 'Pay now': true },
      unreachable: { 'Hidden coupon': true },
      version_idle: true,
      version_change: true,
    });
  });

  it('fails a wrong or guessed resource, a wrong state and a missing conflict, saying what it got', () => {
    const wrong = scorePage(checkoutRun(truthful({ resource: { type: 'runner', id: '3' }, state: 'unknown', conflicts: [] })));
    expect(wrong.checks).toMatchObject({ resource: false, state: false, conflicts: { canvas_total_not_observed: false } });
    expect(wrong.misses.join('\n')).toMatch(/expected order:ORD-2003, got runner:3/);
    expect(wrong.misses.join('\n')).toMatch(/expected awaiting_payment, got unknown/);
    // The right id, but Steward itself says it could not tell: not a known resource.
    expect(scorePage(checkoutRun(truthful({ resourceUnknown: true }))).checks.resource).toBe(false);
  });

  it('on a page that names no resource, wants "could not tell": the page itself or a certainty field saying unknown', () => {
    const run = (o: Partial<ObservedView>): PageRun => {
      const first = truthful({ state: 'unknown', conflicts: [], ...o });
      return { label: landing, first, idle: first };
    };
    expect(scorePage(run({ resource: { type: 'page', id: 'localhost/gallery/html/landing' } })).checks.resource).toBe(true);
    expect(scorePage(run({ resource: { type: 'order', id: '7' }, resourceUnknown: true })).checks.resource).toBe(true);
    expect(scorePage(run({ resource: { type: 'order', id: '7' } })).checks.resource).toBe(false);
    expect(scorePage(run({})).checks.state).toBe(true);
    expect(scorePage(run({ state: 'shipped' })).checks.state).toBe(false);
  });

  it('wants each clickable control targeted by an offered action (or a tool named like it), and no unreachable one clicked or scrolled to', () => {
    const unoffered = scorePage(checkoutRun(truthful({ actions: [] })));
    expect(unoffered.checks.clickable).toEqual({ 'Pay now': false });
    expect(scorePage(checkoutRun(truthful({ actions: [], tools: ['pay now'] }))).checks.clickable).toEqual({ 'Pay now': true });
    // An action for another element with no name match does not count.
    expect(scorePage(checkoutRun(truthful({ actions: [{ action: 'dom.click', target_ref: 'e9' }] }))).checks.clickable).toEqual({ 'Pay now': false });

    const scrolled = scorePage(
      checkoutRun(
        truthful({
          actions: [
            { action: 'dom.click', target_ref: 'e1' },
            { action: 'dom.scroll', target_ref: 'e2' },
          ],
        }),
      ),
    );
    expect(scrolled.checks.unreachable).toEqual({ 'Hidden coupon': false });
    expect(scrolled.misses).toContain('unreachable "Hidden coupon" offered dom.scroll');
  });

  it('counts a version that moved with no action as a false change, and one that stayed after the real change as a missed change', () => {
    const first = truthful();
    expect(scorePage(checkoutRun(first, 'fp-cccccc')).checks).toMatchObject({ version_idle: false });
    expect(scorePage(checkoutRun(first, first.version, first.version)).checks).toMatchObject({ version_idle: true, version_change: false });
    const unmade = scorePage({ label: checkout, first, idle: first, changeError: 'could not make it: no such button' });
    expect(unmade.checks.version_change).toBe(false);
    expect(unmade.misses.join('\n')).toMatch(/no such button/);
    // A page with no real change has nothing to miss.
    expect(scorePage({ label: landing, first: truthful({ state: 'unknown', resource: { type: 'page', id: 'x' } }), idle: first }).checks.version_change).toBeNull();
  });

  it('fails every check of a page that could not be observed', () => {
    const score = scorePage({ label: checkout, error: 'net::ERR_CONNECTION_REFUSED' });
    expect(score.checks).toEqual({
      resource: false,
      state: false,
      conflicts: { canvas_total_not_observed: false },
      clickable: { 'Pay now': false },
      unreachable: { 'Hidden coupon': false },
      version_idle: false,
      version_change: false,
    });
  });
});

describe('gallery metrics', () => {
  it('gives accuracies and recall as ratios and version errors as counts', () => {
    const pageUrl = { resource: { type: 'page', id: 'x' }, state: 'unknown', conflicts: [] };
    const scores = [
      scorePage(checkoutRun(truthful())),
      scorePage(checkoutRun(truthful({ state: 'paid', conflicts: [] }), 'fp-dddddd', 'fp-dddddd')),
      scorePage({ label: landing, first: truthful(pageUrl), idle: truthful({ ...pageUrl, version: 'fp-eeeeee' }) }),
      scorePage({ label: landing, first: truthful(pageUrl), idle: truthful(pageUrl) }),
    ];
    expect(truthMetrics(scores)).toEqual({ resource_accuracy: 1, state_accuracy: 0.75, conflict_recall: 0.5, version_false_change: 2, version_missed_change: 1 });
    const rows = truthRows(scores);
    expect(rows.map((r) => [r.metric, r.case, r.value, r.unit, r.better])).toEqual([
      ['truth.resource_accuracy', 'gallery', 1, 'ratio', 'higher'],
      ['truth.state_accuracy', 'gallery', 0.75, 'ratio', 'higher'],
      ['truth.conflict_recall', 'gallery', 0.5, 'ratio', 'higher'],
      ['truth.version_false_change', 'gallery', 2, 'count', 'lower'],
      ['truth.version_missed_change', 'gallery', 1, 'count', 'lower'],
    ]);
  });

  it('has full recall when nothing was planted', () => {
    expect(truthMetrics([]).conflict_recall).toBe(1);
  });
});

describe('regressions from the baseline', () => {
  const good = scorePage(checkoutRun(truthful()));
  const baseline = baselineOf([good, scorePage({ label: landing, error: 'down' })]);

  it('names each check that passed and fails now', () => {
    const worse = scorePage(checkoutRun(truthful({ conflicts: [], actions: [] }), 'fp-ffffff'));
    expect(compareToBaseline(baseline, [worse]).regressions).toEqual([
      'mui-checkout: version_idle (no false change)',
      'mui-checkout: conflict canvas_total_not_observed',
      'mui-checkout: clickable "Pay now"',
    ]);
  });

  it('treats a newly passing page, a new page and a dropped page as no regression, and says so', () => {
    const fixed = scorePage({
      label: landing,
      first: truthful({ resource: { type: 'page', id: 'x' }, state: 'unknown', conflicts: [] }),
      idle: truthful({ resource: { type: 'page', id: 'x' }, state: 'unknown', conflicts: [] }),
    });
    const fresh = scorePage({ label: { ...landing, slug: 'brand-new' }, error: 'down' });
    const diff = compareToBaseline(baseline, [fixed, fresh]);
    expect(diff.regressions).toEqual([]);
    expect(diff.improvements).toEqual(['landing: resource', 'landing: state', 'landing: version_idle (no false change)']);
    expect(diff.newPages).toEqual(['brand-new']);
    expect(diff.missingPages).toEqual(['mui-checkout']);
  });

  it('round-trips through the recorded JSON shape', () => {
    expect(TruthBaseline.parse(JSON.parse(JSON.stringify(baseline)))).toEqual(baseline);
  });
});
