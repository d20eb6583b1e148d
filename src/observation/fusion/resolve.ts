import type { Fact } from '../../protocol/observed-state.ts';
import type { Evidence } from '../../protocol/resource.ts';
import type { Claim } from '../read/claims.ts';
import { claimWeight, factConfidence } from './confidence.ts';
import { fieldKind, valuesAgree } from './field-kinds.ts';
import { isCoarseState } from '../read/states.ts';

/**
 * Turns the claims for one field into a Fact: each source takes one position (its strongest
 * claim), positions that agree are grouped, the heaviest group wins. Sources in the winning
 * group support the fact; the others are its disagreements and become conflicts.
 */

/** Order used to name conflicts (`dom_state_disagrees_with_network`, `adapter_state_disagrees_with_dom`). */
const NAMING_ORDER: readonly Evidence[] = ['site_contract', 'adapter', 'dom', 'accessibility', 'text', 'structured_data', 'url', 'network', 'webmcp', 'canvas', 'screenshot'];

/** Whose wording a fact shows when agreeing sources word it differently: page wording first, network last, so it does not flip when a response arrives. */
const WORDING_ORDER: readonly Evidence[] = ['site_contract', 'adapter', 'dom', 'accessibility', 'structured_data', 'text', 'url', 'network', 'webmcp', 'canvas', 'screenshot'];

/** Tie-break between equally heavy groups: the more authoritative source wins. */
const AUTHORITY_ORDER: readonly Evidence[] = ['site_contract', 'adapter', 'network', 'webmcp', 'dom', 'structured_data', 'accessibility', 'url', 'text', 'canvas', 'screenshot'];

export interface Resolution {
  fact: Fact;
  conflicts: string[];
  /** Every claim about the field, winners and dissenters, for explanations and the fingerprint. */
  claims: Claim[];
}

interface Position {
  claim: Claim;
  weight: number;
}

function conflictName(a: Evidence, b: Evidence, field: string): string {
  const [first, second] = NAMING_ORDER.indexOf(a) <= NAMING_ORDER.indexOf(b) ? [a, b] : [b, a];
  return `${first}_${field}_disagrees_with_${second}`;
}

/** Each source's strongest claim is its position; weaker claims that contradict it are an inconsistency. */
function positions(claims: readonly Claim[], field: string): { positions: Position[]; conflicts: string[] } {
  const kind = fieldKind(field);
  const bySource = new Map<Evidence, Claim[]>();
  for (const c of claims) {
    const list = bySource.get(c.source);
    if (list) list.push(c);
    else bySource.set(c.source, [c]);
  }
  const out: Position[] = [];
  const conflicts: string[] = [];
  for (const [source, list] of bySource) {
    const sorted = [...list].sort((a, b) => b.strength - a.strength);
    const top = sorted[0]!;
    if (sorted.some((c) => !valuesAgree(kind, c.value, top.value))) conflicts.push(`${source}_${field}_inconsistent`);
    out.push({ claim: top, weight: claimWeight(source, top.strength) });
  }
  return { positions: out, conflicts };
}

function wordingRank(claim: Claim, kind: ReturnType<typeof fieldKind>): number {
  const coarse = kind === 'state' && typeof claim.value === 'string' && isCoarseState(claim.value) ? 100 : 0;
  return coarse + WORDING_ORDER.indexOf(claim.source);
}

export function resolveField(field: string, claims: readonly Claim[]): Resolution | undefined {
  if (claims.length === 0) return undefined;
  const kind = fieldKind(field);
  const { positions: all, conflicts } = positions(claims, field);
  const groups: Position[][] = [];
  for (const p of [...all].sort((a, b) => b.weight - a.weight)) {
    const group = groups.find((g) => g.some((q) => valuesAgree(kind, q.claim.value, p.claim.value)));
    if (group) group.push(p);
    else groups.push([p]);
  }
  const score = (g: Position[]) => g.reduce((s, p) => s + p.weight, 0);
  const authority = (g: Position[]) => Math.min(...g.map((p) => AUTHORITY_ORDER.indexOf(p.claim.source)));
  groups.sort((a, b) => score(b) - score(a) || authority(a) - authority(b));
  const [winner, ...losers] = groups as [Position[], ...Position[][]];
  const wording = [...winner].sort((a, b) => wordingRank(a.claim, kind) - wordingRank(b.claim, kind))[0]!.claim;
  const dissent = losers.flat();
  const supporters = [...winner].sort((a, b) => NAMING_ORDER.indexOf(a.claim.source) - NAMING_ORDER.indexOf(b.claim.source));
  for (const d of dissent) for (const s of supporters) conflicts.push(conflictName(d.claim.source, s.claim.source, field));
  const ref = winner.map((p) => p.claim.ref).find((r) => r !== undefined);
  const fact: Fact = {
    name: field,
    value: wording.value,
    sources: supporters.map((p) => p.claim.source),
    confidence: factConfidence(
      winner.map((p) => p.weight),
      dissent.map((p) => p.weight),
    ),
    ...(ref ? { ref } : {}),
    ...(dissent.length > 0 ? { disagreements: dissent.slice(0, 16).map((p) => ({ source: p.claim.source, value: p.claim.value })) } : {}),
  };
  return { fact, conflicts: [...new Set(conflicts)], claims: [...claims] };
}
