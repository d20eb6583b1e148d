import type { Evidence } from '../../protocol/resource.ts';

/**
 * Confidence rules, kept in one place so that every number in an observation can be explained:
 * - each source has a base weight (how much Steward trusts that kind of evidence);
 * - a claim's weight is the base weight × the claim's strength (how directly it was stated);
 * - a fact's confidence is the chance that at least one supporting source is right, reduced by
 *   the weight of the sources that disagree;
 * - the observation's confidence combines its resource and state facts, reduced per blind spot.
 */
const SOURCE_WEIGHT: Record<Evidence, number> = {
  site_contract: 1,
  adapter: 0.85,
  network: 0.8,
  webmcp: 0.8,
  dom: 0.7,
  structured_data: 0.7,
  accessibility: 0.65,
  url: 0.6,
  text: 0.5,
  canvas: 0.5,
  screenshot: 0.5,
};

export function claimWeight(source: Evidence, strength: number): number {
  return SOURCE_WEIGHT[source] * Math.min(1, Math.max(0, strength));
}

/** How much one disagreeing weight pulls a fact down (0 = ignored, 1 = cancels it). */
const DISAGREEMENT_PULL = 0.7;

export function factConfidence(supporting: readonly number[], disagreeing: readonly number[]): number {
  const support = 1 - supporting.reduce((p, w) => p * (1 - w), 1);
  const against = 1 - disagreeing.reduce((p, w) => p * (1 - w), 1);
  return round(support * (1 - DISAGREEMENT_PULL * against), 3);
}

/** Multipliers for conflicts that are blind spots rather than disagreements already priced into facts. */
function conflictPenalty(code: string): number {
  if (code === 'screenshot_blank') return 0.5;
  if (/_not_observed$/.test(code)) return 0.9;
  if (/_inconsistent$/.test(code)) return 0.9;
  if (code === 'covered_interactive_elements') return 0.95;
  if (/^(hidden|offscreen|zero_size)_interactive_elements$/.test(code)) return 1;
  // Disagreements on resource/state are already in those facts' confidence; on other fields they are not.
  if (/_(?:state|resource_type|resource_id)_disagrees_with_/.test(code)) return 1;
  if (/_disagrees_with_/.test(code)) return 0.9;
  return 0.97; // a blind spot reported by the capture (cross-origin frame, throwing getter, …)
}

/** Resource identity weighs less than state: the id is rarely wrong, the state is what agents act on. */
export function overallConfidence(resource: number, state: number, conflicts: readonly string[]): number {
  const base = 0.4 * resource + 0.6 * state;
  const penalty = conflicts.reduce((p, c) => p * conflictPenalty(c), 1);
  return round(Math.max(0, Math.min(1, base * Math.max(penalty, 0.3))), 2);
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
