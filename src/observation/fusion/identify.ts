import { FIELD, type Claim, type IdentifiedResource } from '../read/claims.ts';
import { cleanResourceId } from '../read/values.ts';
import { resolveField, type Resolution } from './resolve.ts';

/**
 * Which resource the page is about, from the identity claims every source made (URL, headings,
 * forms, structured data, adapters). Undefined when the claims do not name one: the page is then
 * its own resource (`pageResource`), which Steward reports as "could not tell".
 */

const IDENTITY = new Set<string>([FIELD.resourceType, FIELD.resourceId]);

export function identifyResource(claims: readonly Claim[]): { resource?: IdentifiedResource; resolutions: Resolution[] } {
  const identity = claims.filter((c) => IDENTITY.has(c.field));
  const type = resolveField(
    FIELD.resourceType,
    identity.filter((c) => c.field === FIELD.resourceType),
  );
  const id = resolveField(
    FIELD.resourceId,
    identity.filter((c) => c.field === FIELD.resourceId),
  );
  if (!type || !id || typeof type.fact.value !== 'string' || typeof id.fact.value !== 'string') return { resolutions: [] };
  return { resource: { type: type.fact.value, id: id.fact.value }, resolutions: [type, id] };
}

/** A page that names no resource is its own resource: `page` + host and path. */
export function pageResource(url: string): IdentifiedResource {
  const u = new URL(url);
  return { type: 'page', id: cleanResourceId(`${u.host}${u.pathname}`.slice(0, 256).replace(/[^\x21-\x7e]/g, '_')) ?? 'page' };
}

export function pageFacts(page: IdentifiedResource): Resolution[] {
  const why = 'no resource named on the page; the page itself';
  return [
    resolveField(FIELD.resourceType, [{ field: FIELD.resourceType, value: page.type, source: 'url', strength: 0.5, why }])!,
    resolveField(FIELD.resourceId, [{ field: FIELD.resourceId, value: page.id, source: 'url', strength: 0.5, why }])!,
  ];
}
