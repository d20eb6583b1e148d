import type { AvailableActionInput } from '../../protocol/action.ts';
import type { Fact, ObservedState } from '../../protocol/observed-state.ts';
import { HttpUrl, IsoDateTime } from '../../protocol/primitives.ts';
import { Evidence, type Source } from '../../protocol/resource.ts';
import type { ToolDescriptor } from '../../protocol/webmcp.ts';
import type { NetworkRecord, PageSnapshot, SnapshotElement } from '../../protocol/snapshot.ts';
import type { Adapter } from '../adapters/format.ts';
import { runAdapter, type AdapterActionBinding, type AdapterOutput } from '../adapters/evaluate.ts';
import { actionKeys } from './action-keys.ts';
import { blindSpots } from './blind-spots.ts';
import { FIELD, type Claim, type ExtractContext } from '../read/claims.ts';
import { overallConfidence } from './confidence.ts';
import { summarizeElements, summarizeForms, usableElements } from './elements.ts';
import { extractAccessibility } from './extract-accessibility.ts';
import { extractDom } from './extract-dom.ts';
import { extractIdentity } from './extract-identity.ts';
import { extractNetwork } from './extract-network.ts';
import { extractProse } from './extract-prose.ts';
import { extractStructured } from './extract-structured.ts';
import { extractUrl } from './extract-url.ts';
import { fieldKind, valuesAgree } from './field-kinds.ts';
import { fingerprint, fingerprintFields } from './fingerprint.ts';
import { controlValues, labelledFields, shownValues, steadyTexts } from './page-values.ts';
import { domActions } from './dom-actions.ts';
import { identifyResource, pageFacts, pageResource } from './identify.ts';
import { resolveField, type Resolution } from './resolve.ts';
import type { ScreenshotSummary } from './screenshot.ts';
import { statesAgree } from '../read/states.ts';
import { webmcpActions } from './webmcp-actions.ts';

/**
 * fuseWithDetail(input) → ObservedState and the claims it rests on. Pure: no chrome.*, no DOM; runs in the service worker and in Node.
 *
 * 1. every source is read on its own into claims (extract-*.ts, adapters);
 * 2. the resource is identified from the identity claims;
 * 3. the sources are read again knowing the resource (or about the page itself when it names
 *    none), and each field is resolved into a Fact (resolve.ts) with the sources that agree and
 *    those that disagree;
 * 4. actions come from WebMCP tools, adapters and the page's own controls;
 * 5. blind spots, confidence and the semantic fingerprint complete the observation.
 */

export interface FuseInput {
  snapshot: PageSnapshot;
  /** Same-origin JSON responses the page fetched (NetworkBuffer.records()). */
  network?: readonly NetworkRecord[];
  /** The page's WebMCP tools as discovered (validated again here). */
  tools?: readonly ToolDescriptor[];
  /** Candidate adapters; those matching the page are run. */
  adapters?: readonly Adapter[];
  screenshot?: ScreenshotSummary;
  /** Defaults to the snapshot's capture time. */
  observedAt?: string;
}

export interface FusionDetail {
  state: ObservedState;
  /** Every claim from every source, with its explanation. */
  claims: Claim[];
  adapters: AdapterOutput[];
  /** How to run each adapter action (its control and the control of each input). */
  adapterBindings: AdapterActionBinding[];
}

export class FusionError extends Error {
  constructor(
    readonly code: 'UNSUPPORTED_URL',
    message: string,
  ) {
    super(message);
    this.name = 'FusionError';
  }
}

const EXTRACTORS = [extractUrl, extractIdentity, extractAccessibility, extractDom, extractStructured, extractNetwork, extractProse];

function byField(claims: readonly Claim[]): Map<string, Claim[]> {
  const map = new Map<string, Claim[]>();
  for (const c of claims) {
    const list = map.get(c.field);
    if (list) list.push(c);
    else map.set(c.field, [c]);
  }
  return map;
}

const EVIDENCE_ORDER = Evidence.options;

export function fuseWithDetail(input: FuseInput): FusionDetail {
  const { snapshot } = input;
  if (!HttpUrl.safeParse(snapshot.url).success) {
    throw new FusionError('UNSUPPORTED_URL', `Steward observes http(s) pages only, not ${JSON.stringify(snapshot.url.slice(0, 100))}.`);
  }
  const elements = usableElements(snapshot);
  const network = input.network ?? [];
  const adapterOutputs = (input.adapters ?? []).map((a) => runAdapter(a, snapshot, elements)).filter((o): o is AdapterOutput => o !== undefined);
  const adapterClaims = adapterOutputs.flatMap((o) => o.claims);

  // Sources read only what the page does not change on its own: a rotating promo ("Free returns:
  // 30 days") or a carousel slide naming an order must not name the resource, a state or a value.
  const steady: PageSnapshot = { ...snapshot, texts: steadyTexts(snapshot) };

  // Pass 1: who is this page about?
  const firstPass: ExtractContext = { snapshot: steady, network };
  const identity = identifyResource([...EXTRACTORS.flatMap((x) => x(firstPass)), ...adapterClaims]);
  const resource = identity.resource;

  // Pass 2: what do the sources say about it, or, when it names none, about the page itself?
  const read = [...EXTRACTORS.flatMap((x) => x({ snapshot: steady, network, ...(resource ? { resource } : {}) })), ...adapterClaims];
  const claims = resource ? read : pageClaims(read);
  const resolutions: Resolution[] = [];
  for (const [field, list] of byField(claims)) {
    const r = resolveField(field, list);
    if (r) resolutions.push(r);
  }
  const subject = resource ?? pageResource(snapshot.url);
  if (!resource) resolutions.push(...pageFacts(subject));
  const fact = (name: string) => resolutions.find((r) => r.fact.name === name)?.fact;
  const stateFact = fact(FIELD.state);
  const state = typeof stateFact?.value === 'string' ? stateFact.value : 'unknown';

  // Actions: the page's tools, the adapters' mapped actions (in their states), the page's own controls.
  const mcp = webmcpActions(input.tools ?? []);
  const bindings = adapterOutputs.flatMap((o) => o.actions).filter((b) => !b.states || b.states.some((s) => statesAgree(s, state)));
  const onElements = domActions(snapshot, elements);
  const declared: AvailableActionInput[] = [...mcp.actions, ...bindings.map((b) => b.action), ...onElements.actions];

  const spots = blindSpots({
    snapshot,
    elements,
    ...(resource ? { resource } : {}),
    claims,
    expected: adapterOutputs.flatMap((o) => o.expected),
    ...(input.screenshot ? { screenshot: input.screenshot } : {}),
  });
  const conflicts = dedupe(
    [
      ...resolutions.flatMap((r) => r.conflicts),
      ...(resource && !stateFact ? ['state_not_observed'] : []),
      ...adapterOutputs.flatMap((o) => o.conflicts),
      ...mcp.conflicts,
      ...(onElements.truncated ? ['legacy_actions_truncated'] : []),
      ...spots.conflicts,
    ].map(conflictCode),
  ).slice(0, 256);
  const offered = declared.slice(0, 512); // tools first, then adapter actions, then the page's controls

  const facts = resolutions.map((r) => r.fact).slice(0, 1000);
  const evidence = evidenceOf(facts, {
    dom: elements.length > 0,
    mcp: mcp.actions.length > 0,
    adapter: adapterOutputs.length > 0,
    canvas: spots.canvasHashes.length > 0,
    screenshot: input.screenshot !== undefined,
  });
  const resourceConfidence = Math.min(fact(FIELD.resourceType)?.confidence ?? 0, fact(FIELD.resourceId)?.confidence ?? 0) * (resource ? 1 : 0.5);
  const observed: ObservedState = {
    resource: subject,
    state,
    available_actions: dedupe(offered.map((a) => a.action)),
    source: sourceOf(stateFact),
    evidence,
    confidence: overallConfidence(resourceConfidence, stateFact?.confidence ?? 0.1, conflicts),
    conflicts,
    state_version: fingerprint({
      resource: subject,
      state,
      actions: actionKeys(elements, declared),
      fields: fingerprintFields(resolutions, labelledFields(steady.texts)),
      canvases: spots.canvasHashes,
      shown: shownValues(steady.texts),
      controls: controlValues(snapshot, elements),
    }),
    observed_at: [input.observedAt, snapshot.capturedAt].find((t) => IsoDateTime.safeParse(t).success) ?? new Date().toISOString(),
    url: snapshot.url,
    ...(snapshot.title ? { title: snapshot.title.slice(0, 1024) } : {}),
    resource_identity: identity.identity,
    elements: summarizeElements(elements, snapshot),
    facts,
    forms: summarizeForms(snapshot, new Map(elements.map((e: SnapshotElement) => [e.ref, e]))),
    tools: mcp.tools,
    actions: offered.map(withDefaults),
  };
  return { state: observed, claims, adapters: adapterOutputs, adapterBindings: bindings };
}

/**
 * What a page without an identified resource says about itself: no partial identity (a type
 * without an id names nothing), and no field one source states with different values (several
 * statuses or totals are a list of things, none of which is the page's own).
 */
function pageClaims(claims: readonly Claim[]): Claim[] {
  const kept = claims.filter((c) => c.field !== FIELD.resourceType && c.field !== FIELD.resourceId);
  const first = new Map<string, Claim>();
  const mixed = new Set<string>();
  for (const c of kept) {
    const key = `${c.source}:${c.field}`;
    const seen = first.get(key);
    if (!seen) first.set(key, c);
    else if (!valuesAgree(fieldKind(c.field), seen.value, c.value)) mixed.add(key);
  }
  return kept.filter((c) => !mixed.has(`${c.source}:${c.field}`));
}

/** The path that produced the state: an adapter when one supports it, otherwise inference. */
function sourceOf(stateFact: Fact | undefined): Source {
  return stateFact?.sources.includes('adapter') ? 'adapter' : 'legacy_inference';
}

function evidenceOf(facts: readonly Fact[], used: { dom: boolean; mcp: boolean; adapter: boolean; canvas: boolean; screenshot: boolean }): Evidence[] {
  const set = new Set<Evidence>();
  for (const f of facts) {
    f.sources.forEach((s) => set.add(s));
    f.disagreements?.forEach((d) => set.add(d.source));
  }
  if (used.dom) set.add('dom');
  if (used.mcp) set.add('webmcp');
  if (used.adapter) set.add('adapter');
  if (used.canvas) set.add('canvas');
  if (used.screenshot) set.add('screenshot');
  if (set.size === 0) set.add('url');
  return EVIDENCE_ORDER.filter((e) => set.has(e));
}

function withDefaults(a: AvailableActionInput) {
  return { ...a, payment: a.payment ?? false, untrusted_content: a.untrusted_content ?? false };
}

/** Conflict codes are at most 128 characters (a long adapter field name must not break the observation). */
function conflictCode(code: string): string {
  return code.length <= 128 ? code : code.slice(0, 128).replace(/_+$/, '');
}

function dedupe<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
