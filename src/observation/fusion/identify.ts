import type { ResourceIdentity } from '../../protocol/observed-state.ts';
import { FIELD, type Claim, type IdentifiedResource } from '../read/claims.ts';
import { cleanResourceId } from '../read/values.ts';
import { resolveField, type Resolution } from './resolve.ts';

/**
 * Which resource the page is about, from the identity claims every source made (URL, title,
 * headings, breadcrumb, labelled ids, forms, structured data, adapters), and how sure Steward is:
 *
 * - `identified`: one direct cue names it (the URL path, structured data, a form's target, the
 *   main heading, a labelled id such as "Order number: 2003", an adapter), or two different cues
 *   agree (the title and the breadcrumb), and no cue as strong names another id;
 * - `guessed`: only one weak cue names it (only the title, only a breadcrumb, a minor heading), or
 *   an equally strong cue names another id. It is still the resource, and every surface says it
 *   is a guess and from what;
 * - `unknown`: nothing names an id and a type: the page is its own resource (`pageResource`) and
 *   Steward says it could not tell. A type named without an id ("Orders" in a breadcrumb) is kept
 *   as the likely type so a person reads "could not tell which order this is".
 */

/** A claim at least this strong names the resource directly (see the strengths in extract-identity.ts). */
const DIRECT = 0.8;
/** Different cues that agree on an id: this many make a weak naming an identification. */
const CORROBORATING = 2;

const IDENTITY = new Set<string>([FIELD.resourceType, FIELD.resourceId]);

export interface Identity {
  resource?: IdentifiedResource;
  resolutions: Resolution[];
  identity: ResourceIdentity;
}

const sameId = (a: Claim['value'], b: Claim['value']) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/** How sure the claims that name `value` make it, and in their words why. */
function certaintyOf(claims: readonly Claim[], value: string): { certainty: 'identified' | 'guessed'; basis: string } {
  const support = claims.filter((c) => sameId(c.value, value));
  const dissent = claims.filter((c) => !sameId(c.value, value));
  const strongest = Math.max(...support.map((c) => c.strength));
  const cues = new Set(support.map((c) => c.why));
  const contested = dissent.some((c) => c.strength >= strongest);
  const sure = !contested && (strongest >= DIRECT || cues.size >= CORROBORATING);
  const basis = [...cues].slice(0, 3).join('; ');
  return { certainty: sure ? 'identified' : 'guessed', basis: basis.length > 300 ? `${basis.slice(0, 299)}…` : basis };
}

export function identifyResource(claims: readonly Claim[]): Identity {
  const identity = claims.filter((c) => IDENTITY.has(c.field));
  const typeClaims = identity.filter((c) => c.field === FIELD.resourceType);
  const idClaims = identity.filter((c) => c.field === FIELD.resourceId);
  const type = resolveField(FIELD.resourceType, typeClaims);
  const id = resolveField(FIELD.resourceId, idClaims);
  const likely = typeof type?.fact.value === 'string' ? type.fact.value : undefined;
  if (!type || !id || typeof type.fact.value !== 'string' || typeof id.fact.value !== 'string') {
    return { resolutions: [], identity: { certainty: 'unknown', ...(likely ? { likely_type: likely } : {}) } };
  }
  const ofId = certaintyOf(idClaims, id.fact.value);
  const ofType = certaintyOf(typeClaims, type.fact.value);
  const certainty = ofId.certainty === 'identified' && ofType.certainty === 'identified' ? 'identified' : 'guessed';
  return {
    resource: { type: type.fact.value, id: id.fact.value },
    resolutions: [type, id],
    identity: { certainty, ...(ofId.basis ? { basis: ofId.basis } : {}) },
  };
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
