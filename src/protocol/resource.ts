import { z } from 'zod';
import { Origin, SNAKE_CASE, SnakeCase } from './primitives.ts';

/** Kind of thing an agent works on, e.g. `order`, `appointment`. */
export const ResourceType = SnakeCase;

/** The site's own identifier, e.g. `ORD-1024`; printable ASCII, and never the wildcard `*`. */
export const ResourceId = z.string().regex(/^[A-Za-z0-9][\x21-\x7e]{0,255}$/, 'must be a printable identifier without spaces, e.g. ORD-1024');

/**
 * Stable reference to a resource: the model is the resource, never a URL, selector or tab. A
 * resource is `(origin, type, id)`: two sites that use the same id are two resources. `origin`
 * is optional on the wire (an agent may leave it to the tab it works in, see the navigator) and
 * in records written before it existed; once Steward has reached a resource it always knows it.
 */
export const ResourceRef = z.object({ origin: Origin.optional(), type: ResourceType, id: ResourceId });
export type ResourceRef = z.infer<typeof ResourceRef>;

/** A resource whose site is known: what Steward acts on, approves, records and remembers. */
export type SiteResource = ResourceRef & { origin: string };

/**
 * Whether two references name the same resource: same type and id, and the same origin. A
 * reference without an origin (an old record) never matches one with an origin: it is read as
 * another resource, never as this site's.
 */
export function sameResource(a: ResourceRef, b: ResourceRef): boolean {
  return a.type === b.type && a.id === b.id && a.origin === b.origin;
}

/** Whether `ref` may be `resource`: same type and id, and the same origin when `ref` names one. */
export function resourceMatches(ref: ResourceRef, resource: ResourceRef): boolean {
  return ref.type === resource.type && ref.id === resource.id && (ref.origin === undefined || ref.origin === resource.origin);
}

/** The resource on `origin` (the origin the request named stays: a caller checks they agree). */
export function atOrigin(ref: ResourceRef, origin: string): SiteResource {
  return { origin: ref.origin ?? origin, type: ref.type, id: ref.id };
}

/** A key for maps and stable ids: origin, type and id (an unknown origin is its own, empty, site). */
export function resourceKey(ref: ResourceRef): string {
  return `${ref.origin ?? ''}|${ref.type}:${ref.id}`;
}

/** How a resource is named in messages: `order ORD-1024 on http://localhost:4100`. */
export function resourceWords(ref: ResourceRef): string {
  return `${ref.type} ${ref.id}${ref.origin ? ` on ${ref.origin}` : ''}`;
}

/** Name of a resource state, e.g. `awaiting_payment`. */
export const StateName = SnakeCase;
export type StateName = z.infer<typeof StateName>;

/** Site-issued version (contract path): a non-negative integer that grows with every change. */
const ContractStateVersion = z.int({ error: 'must be a non-negative integer' }).nonnegative('must be a non-negative integer');

/** Steward's fingerprint of the semantic content it observed: `fp-` + at least 6 hex digits. */
const FINGERPRINT = /^fp-[0-9a-f]{6,}$/;
const Fingerprint = z.string().max(80, 'must be at most 80 characters').regex(FINGERPRINT, 'must be a fingerprint: "fp-" followed by at least 6 lower-case hex digits');

export const StateVersion = z.union([ContractStateVersion, Fingerprint], {
  error: 'must be an integer (from a site contract) or a fingerprint "fp-" + hex',
});
export type StateVersion = z.infer<typeof StateVersion>;

/** Which of the four paths produced a state or result (DESIGN §1), in order of authority. */
export const Source = z.enum(['site_contract', 'webmcp', 'adapter', 'legacy_inference']);
export type Source = z.infer<typeof Source>;

/** Kinds of evidence that can contribute to an observation (closed set: new kinds are a spec change). */
export const Evidence = z.enum([
  'site_contract', // the site's Semantic State Contract endpoint
  'webmcp', // a WebMCP tool's declaration or result
  'adapter', // a per-domain adapter's mapping
  'dom', // DOM structure and attributes
  'accessibility', // the computed accessibility tree
  'text', // visible text
  'network', // responses the page fetched
  'structured_data', // JSON-LD, microdata, meta tags
  'url', // the URL itself (path, query)
  'canvas', // content read from a <canvas>
  'screenshot', // pixels
]);
export type Evidence = z.infer<typeof Evidence>;

/** A named disagreement or blind spot, e.g. `dom_state_disagrees_with_network` (open set, snake_case). */
export const ConflictCode = z.string().max(128, 'must be at most 128 characters').regex(SNAKE_CASE, 'must be a snake_case conflict name, e.g. canvas_total_not_observed');
export type ConflictCode = z.infer<typeof ConflictCode>;

/** Which resources a token or receipt covers: `*`, `order:*` or `order:ORD-1024`. */
export const ResourceScope = z.string().regex(/^(?:\*|[a-z][a-z0-9]*(?:_[a-z0-9]+)*:(?:\*|[A-Za-z0-9][\x21-\x7e]{0,255}))$/, 'must be "*", "<type>:*" or "<type>:<id>", e.g. order:ORD-1024');
export type ResourceScope = z.infer<typeof ResourceScope>;

/** The exact scope string for one resource, e.g. `order:ORD-1024`. */
export function resourceScopeOf(ref: ResourceRef): ResourceScope {
  return `${ref.type}:${ref.id}`;
}

/** True when `scope` covers `ref` (exact match, a type wildcard, or `*`). */
export function resourceScopeCovers(scope: string, ref: ResourceRef): boolean {
  if (scope === '*') return true;
  const colon = scope.indexOf(':');
  if (colon < 0) return false;
  const type = scope.slice(0, colon);
  const id = scope.slice(colon + 1);
  return type === ref.type && (id === '*' || id === ref.id);
}
