import type { Claim } from '../read/claims.ts';
import { fieldKind } from './field-kinds.ts';
import { canonicalJson } from '../../base/canonical-json.ts';
import { fnv1a64 } from '../../base/hash.ts';
import type { Resolution } from './resolve.ts';

/**
 * state_version for everything Steward infers: `fp-` + FNV-1a 64 of the semantic content only —
 * resource, state, the set of things one can do, the key values every source reported, and on
 * every page what it shows as values and the settings of its controls (see page-values.ts).
 * Never clocks, banners, scroll, boxes, focus, element values being typed, or timestamps.
 */
export interface FingerprintInput {
  resource: { type: string; id: string };
  state: string;
  /** One key per action, independent of refs and layout (see `actionKeys` in fuse.ts). */
  actions: readonly string[];
  /** Per field, the values reported (one entry per distinct value). */
  fields: Readonly<Record<string, readonly (string | number | boolean | null)[]>>;
  /** Pixel hashes of canvases that are the only place an expected value is shown. */
  canvases?: readonly string[];
  /** Short texts that are a value on their own, in page order (a multiset). */
  shown?: readonly string[];
  /** Settings of controls that act at once (`checkbox:Gift wrap=on`). */
  controls?: readonly string[];
}

export function fingerprint(input: FingerprintInput): string {
  const fields: Record<string, unknown[]> = {};
  // A value parsed from page text may be NaN; it counts as null, never as an error.
  for (const [name, values] of Object.entries(input.fields)) fields[name] = [...new Set(values.map((v) => canonicalJson(jsonValue(v))))].sort();
  const content = {
    v: 1,
    resource: [input.resource.type, input.resource.id],
    state: input.state,
    actions: [...new Set(input.actions)].sort(),
    fields,
    canvases: [...new Set(input.canvases ?? [])].sort(),
    shown: [...(input.shown ?? [])].sort(),
    controls: [...(input.controls ?? [])].sort(),
  };
  return `fp-${fnv1a64(canonicalJson(content))}`;
}

/**
 * Values per field for the fingerprint: every distinct value any source reported, so a change
 * seen by one source alone (the API's total) still changes the version. Line items are the
 * exception: each source words them differently, so only the fact's (stable) wording counts.
 */
export function fingerprintFields(resolutions: readonly Resolution[], labelled: Readonly<Record<string, readonly string[]>> = {}): Record<string, Array<string | number | boolean | null>> {
  const out: Record<string, Array<string | number | boolean | null>> = {};
  for (const r of resolutions) {
    const kind = fieldKind(r.fact.name);
    out[r.fact.name] = kind === 'items' ? [r.fact.value] : r.claims.map((c: Claim) => c.value);
  }
  // Labelled values the page shows count whether or not they became a fact (a list's statuses,
  // a label Steward has no field for); one it read as a fact counts as that fact's value.
  for (const [field, values] of Object.entries(labelled)) {
    if (fieldKind(field) === 'items') continue;
    const known = out[field] ?? [];
    const asFact = (v: string) => (fieldKind(field) === 'money' && Number.isFinite(Number(v)) ? Number(v) : v);
    out[field] = [...known, ...values.map(asFact)];
  }
  return out;
}

function jsonValue(v: string | number | boolean | null): string | number | boolean | null {
  return typeof v === 'number' && !Number.isFinite(v) ? null : v;
}
