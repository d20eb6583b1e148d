import { z } from 'zod';
import { ActionName } from './action-name.ts';
import { AvailableAction } from './action.ts';
import { ElementRef, ElementSummary, FormSummary } from './element.ts';
import { Confidence, HttpUrl, IsoDateTime, SnakeCase, duplicateIndices } from './primitives.ts';
import { ConflictCode, Evidence, ResourceRef, Source, StateName, StateVersion } from './resource.ts';
import { ToolDescriptor } from './webmcp.ts';

/** A value Steward read, with which sources agree on it: confidence must be explainable (DESIGN §2). */
export const Fact = z
  .object({
    name: SnakeCase,
    value: z.union([z.string().max(4096), z.number(), z.boolean(), z.null()]),
    /** Sources that agree on `value`. */
    sources: z.array(Evidence).min(1, 'must name at least one source that supports the fact'),
    confidence: Confidence,
    /** Element the value was read from, when there is one. */
    ref: ElementRef.optional(),
    /** Sources that saw something else (each one should also appear in `conflicts`). */
    disagreements: z
      .array(z.object({ source: Evidence, value: z.unknown() }))
      .max(16)
      .optional(),
  })
  .superRefine((f, ctx) => {
    for (const i of duplicateIndices(f.sources)) {
      ctx.addIssue({ code: 'custom', path: ['sources', i], message: `repeats source "${f.sources[i]}"` });
    }
    f.disagreements?.forEach((d, i) => {
      if (f.sources.includes(d.source)) {
        ctx.addIssue({
          code: 'custom',
          path: ['disagreements', i, 'source'],
          message: `"${d.source}" cannot both support and disagree with the fact`,
        });
      }
    });
  });
export type Fact = z.infer<typeof Fact>;

/**
 * How sure Steward is of `resource` (issue 14): `identified` when the page names it directly or
 * cues agree, `guessed` when one weak cue names it (only the title, only a breadcrumb), `unknown`
 * when nothing does and the resource is the page itself. A guess is never shown as if known.
 */
const ResourceCertainty = z.enum(['identified', 'guessed', 'unknown']);

export const ResourceIdentity = z.object({
  certainty: ResourceCertainty,
  /** Where the page names it, for a person: `page title "Checkout · ORD-2003"`. Page text: data, never instructions. */
  basis: z.string().max(300).optional(),
  /** When unknown: the kind of resource the page seems to be about (`order`), if that much is named. */
  likely_type: SnakeCase.optional(),
});
export type ResourceIdentity = z.infer<typeof ResourceIdentity>;

/**
 * The normative summary (DESIGN §2) plus optional detail. Unrefined so that other shapes can
 * `pick` from it; use `ObservedState` to validate.
 */
const ObservedStateBase = z.object({
  resource: ResourceRef,
  state: StateName,
  available_actions: z.array(ActionName).max(512),
  source: Source,
  /** Only sources that actually contributed. */
  evidence: z.array(Evidence).min(1, 'must list at least one source that contributed'),
  confidence: Confidence,
  conflicts: z.array(ConflictCode).max(256),
  state_version: StateVersion,
  observed_at: IsoDateTime,
  url: HttpUrl,
  // ── detail an agent needs (all optional) ──
  /** How sure Steward is of `resource`; absent in observations made before it was reported. */
  resource_identity: ResourceIdentity.optional(),
  title: z.string().max(1024).optional(),
  elements: z.array(ElementSummary).max(100_000).optional(),
  facts: z.array(Fact).max(1000).optional(),
  forms: z.array(FormSummary).max(200).optional(),
  /** The page's WebMCP tools, as discovered. */
  tools: z.array(ToolDescriptor).max(512).optional(),
  /** Full descriptions of `available_actions`. */
  actions: z.array(AvailableAction).max(512).optional(),
  /**
   * Actions the site's contract defines for this resource but not in its current state (cancel,
   * once shipped): asking for one is PRECONDITION_FAILED, with the state it needs, not "unknown".
   */
  unavailable_actions: z
    .array(z.object({ action: ActionName, allowed_in_states: z.array(StateName).min(1).max(128) }))
    .max(256)
    .optional(),
});

type ObservedStateShape = z.infer<typeof ObservedStateBase>;

function checkObservedState(s: ObservedStateShape, ctx: z.RefinementCtx): void {
  const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  for (const i of duplicateIndices(s.evidence)) issue(['evidence', i], `repeats "${s.evidence[i]}"`);
  for (const i of duplicateIndices(s.conflicts)) issue(['conflicts', i], `repeats "${s.conflicts[i]}"`);
  for (const i of duplicateIndices(s.available_actions)) issue(['available_actions', i], `repeats "${s.available_actions[i]}"`);

  // Integer versions are the site's own; everything Steward infers is fingerprinted (DESIGN §2).
  const isInt = typeof s.state_version === 'number';
  if (s.source === 'site_contract' && !isInt) {
    issue(['state_version'], "a site_contract state must carry the site's integer state_version");
  } else if (s.source !== 'site_contract' && isInt) {
    issue(['state_version'], `an integer state_version comes only from a site contract; a ${s.source} state uses a fingerprint "fp-…"`);
  }
  if (s.source === 'site_contract' && !s.evidence.includes('site_contract')) {
    issue(['evidence'], 'a site_contract state must list site_contract as evidence');
  }

  // Each fact's provenance must be part of the evidence the observation claims.
  s.facts?.forEach((f, fi) =>
    f.sources.forEach((src, si) => {
      if (!s.evidence.includes(src)) issue(['facts', fi, 'sources', si], `"${src}" is not listed in evidence`);
    }),
  );
  if (s.elements) {
    const refs = s.elements.map((e) => e.ref);
    for (const i of duplicateIndices(refs)) issue(['elements', i, 'ref'], `ref "${refs[i]}" is used twice`);
  }
  s.actions?.forEach((a, i) => {
    if (!s.available_actions.includes(a.action)) {
      issue(['actions', i, 'action'], `"${a.action}" is not listed in available_actions`);
    }
  });
}

export const ObservedState = ObservedStateBase.superRefine(checkObservedState);
export type ObservedState = z.infer<typeof ObservedState>;

/** The part of an observation shown beside an approval or stored with a journal entry. */
export const StateSummary = ObservedStateBase.pick({
  state: true,
  state_version: true,
  source: true,
  evidence: true,
  confidence: true,
  conflicts: true,
  observed_at: true,
});
export type StateSummary = z.infer<typeof StateSummary>;
