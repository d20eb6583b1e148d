/**
 * The truth benchmark's scoring (issue 14), pure: what Steward observed on each labelled gallery
 * page against what its label says a truthful observer reports there, the five `truth.*` metrics,
 * and the regressions from a recorded baseline. The browser side is test/harness/gallery-truth.ts.
 */
import { z } from 'zod';
import type { GalleryLabel } from '../sites/lab/gallery/label.ts';

/** The part of an ObservedState the scoring reads. */
export interface ObservedView {
  resource: { type: string; id: string };
  /** Steward said it could not tell which resource this is (`resource_identity.certainty` is `unknown`). A guess that is right counts as right. */
  resourceUnknown: boolean;
  state: string;
  conflicts: string[];
  version: string | number;
  elements: Array<{ ref: string; name: string; role: string }>;
  actions: Array<{ action: string; target_ref?: string; title?: string }>;
  /** Names and titles of the page's WebMCP tools. */
  tools: string[];
}

/** One labelled page as the evaluator saw it: settled, again after a quiet spell, again after the real change. */
export interface PageRun {
  label: GalleryLabel;
  first?: ObservedView;
  /** After about 3 s with no action. */
  idle?: ObservedView;
  /** After `label.real_change` was made. */
  changed?: ObservedView;
  /** Loading or observing the page failed: every check fails. */
  error?: string;
  /** Making the real change failed (the control was not found): counted as a missed change. */
  changeError?: string;
}

/** Pass/fail of every check on one page: what the baseline records. */
const PageChecks = z.strictObject({
  resource: z.boolean(),
  state: z.boolean(),
  conflicts: z.record(z.string(), z.boolean()),
  clickable: z.record(z.string(), z.boolean()),
  unreachable: z.record(z.string(), z.boolean()),
  /** state_version stayed put while nobody acted. */
  version_idle: z.boolean(),
  /** state_version moved with the real change; null when the page has none. */
  version_change: z.boolean().nullable(),
});
type PageChecks = z.infer<typeof PageChecks>;

export interface PageScore {
  slug: string;
  kit: GalleryLabel['kit'];
  checks: PageChecks;
  /** What went wrong, one line each, for people. */
  misses: string[];
}

export const TruthMetrics = z.strictObject({
  resource_accuracy: z.number().min(0).max(1),
  state_accuracy: z.number().min(0).max(1),
  conflict_recall: z.number().min(0).max(1),
  version_false_change: z.int().nonnegative(),
  version_missed_change: z.int().nonnegative(),
});
export type TruthMetrics = z.infer<typeof TruthMetrics>;

/** The recorded numbers the e2e check compares against (test/harness/gallery-baseline.json). */
export const TruthBaseline = z.strictObject({
  metrics: TruthMetrics,
  pages: z.record(z.string(), PageChecks),
});
export type TruthBaseline = z.infer<typeof TruthBaseline>;

const refText = (r: { type: string; id: string } | null) => (r ? `${r.type}:${r.id}` : 'none');

/** Steward says it could not tell: the page is its own resource, or its certainty is `unknown`. */
const saysUnknown = (o: ObservedView) => o.resource.type === 'page' || o.resourceUnknown;

function resourceRight(label: GalleryLabel, o: ObservedView): boolean {
  if (label.resource === null) return saysUnknown(o);
  return !o.resourceUnknown && o.resource.type === label.resource.type && o.resource.id === label.resource.id;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Actions that target an element with this accessible name, and tools or actions titled with it. */
function offeredFor(o: ObservedView, name: string): string[] {
  const refs = new Set(o.elements.filter((e) => sameName(e.name, name)).map((e) => e.ref));
  const targeted = o.actions.filter((a) => a.target_ref !== undefined && refs.has(a.target_ref)).map((a) => a.action);
  const named = o.actions.filter((a) => a.target_ref === undefined && ((a.title !== undefined && sameName(a.title, name)) || sameName(a.action, name))).map((a) => a.action);
  const tools = o.tools.filter((t) => sameName(t, name));
  return [...targeted, ...named, ...tools];
}

const REACHING = new Set(['dom.click', 'dom.scroll']);

export function scorePage(run: PageRun): PageScore {
  const { label } = run;
  const misses: string[] = [];
  const fail = (why: string) => {
    misses.push(why);
    return false;
  };
  const o = run.first;
  if (!o) {
    const why = `not observed: ${run.error ?? 'no observation'}`;
    return {
      slug: label.slug,
      kit: label.kit,
      misses: [why],
      checks: {
        resource: false,
        state: false,
        conflicts: Object.fromEntries(label.conflicts.map((c) => [c, false])),
        clickable: Object.fromEntries(label.clickable.map((c) => [c, false])),
        unreachable: Object.fromEntries(label.unreachable.map((c) => [c, false])),
        version_idle: false,
        version_change: label.real_change ? false : null,
      },
    };
  }
  const resource =
    resourceRight(label, o) || fail(`resource: expected ${label.resource ? refText(label.resource) : 'could not tell'}, got ${refText(o.resource)}${o.resourceUnknown ? ' (unknown)' : ''}`);
  const wantedState = label.state ?? 'unknown';
  const state = o.state === wantedState || fail(`state: expected ${wantedState}, got ${o.state}`);
  const conflicts = Object.fromEntries(label.conflicts.map((c) => [c, o.conflicts.includes(c) || fail(`conflict ${c} not reported (got ${o.conflicts.join(', ') || 'none'})`)]));
  const clickable = Object.fromEntries(label.clickable.map((n) => [n, offeredFor(o, n).length > 0 || fail(`clickable "${n}" not offered`)]));
  const unreachable = Object.fromEntries(
    label.unreachable.map((n) => {
      const reaching = offeredFor(o, n).filter((a) => REACHING.has(a));
      return [n, reaching.length === 0 || fail(`unreachable "${n}" offered ${reaching.join(', ')}`)];
    }),
  );
  const version_idle = run.idle !== undefined && run.idle.version === o.version;
  if (!version_idle) fail(run.idle ? `false change: state_version moved from ${o.version} to ${run.idle.version} with no action` : 'false change: not observed again after the quiet spell');
  let version_change: boolean | null = null;
  if (label.real_change) {
    const before = run.idle?.version ?? o.version;
    version_change = run.changed !== undefined && run.changed.version !== before;
    if (!version_change) fail(`missed change: ${label.real_change.what} (${run.changeError ?? `state_version stayed ${before}`})`);
  }
  return { slug: label.slug, kit: label.kit, misses, checks: { resource, state, conflicts, clickable, unreachable, version_idle, version_change } };
}

const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);

export function truthMetrics(scores: readonly PageScore[]): TruthMetrics {
  const conflicts = scores.flatMap((s) => Object.values(s.checks.conflicts));
  return {
    resource_accuracy: ratio(scores.filter((s) => s.checks.resource).length, scores.length),
    state_accuracy: ratio(scores.filter((s) => s.checks.state).length, scores.length),
    conflict_recall: ratio(conflicts.filter(Boolean).length, conflicts.length),
    version_false_change: scores.filter((s) => !s.checks.version_idle).length,
    version_missed_change: scores.filter((s) => s.checks.version_change === false).length,
  };
}

export function baselineOf(scores: readonly PageScore[]): TruthBaseline {
  return { metrics: truthMetrics(scores), pages: Object.fromEntries(scores.map((s) => [s.slug, s.checks])) };
}

/** Every check as `name → passed`, flattened (`conflict canvas_total_not_observed`, `clickable "Pay now"`). */
function flatten(c: PageChecks): Map<string, boolean | null> {
  const out = new Map<string, boolean | null>([
    ['resource', c.resource],
    ['state', c.state],
    ['version_idle (no false change)', c.version_idle],
    ['version_change (no missed change)', c.version_change],
  ]);
  for (const [k, v] of Object.entries(c.conflicts)) out.set(`conflict ${k}`, v);
  for (const [k, v] of Object.entries(c.clickable)) out.set(`clickable "${k}"`, v);
  for (const [k, v] of Object.entries(c.unreachable)) out.set(`unreachable "${k}"`, v);
  return out;
}

export interface BaselineComparison {
  /** A check that passed in the baseline and fails now: `<slug>: <check>`. */
  regressions: string[];
  /** A check that failed (or was not recorded) and passes now: record the baseline again. */
  improvements: string[];
  /** Labelled pages the baseline does not know yet. */
  newPages: string[];
  /** Baseline pages with no label any more. */
  missingPages: string[];
}

export function compareToBaseline(baseline: TruthBaseline, scores: readonly PageScore[]): BaselineComparison {
  const result: BaselineComparison = { regressions: [], improvements: [], newPages: [], missingPages: [] };
  const seen = new Set<string>();
  for (const s of scores) {
    seen.add(s.slug);
    const recorded = baseline.pages[s.slug];
    if (!recorded) {
      result.newPages.push(s.slug);
      continue;
    }
    const before = flatten(recorded);
    for (const [check, now] of flatten(s.checks)) {
      const was = before.get(check);
      if (was === true && now !== true) result.regressions.push(`${s.slug}: ${check}`);
      else if (was !== true && now === true) result.improvements.push(`${s.slug}: ${check}`);
    }
  }
  result.missingPages = Object.keys(baseline.pages).filter((slug) => !seen.has(slug));
  return result;
}
