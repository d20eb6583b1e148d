import { FIELD, quote, type Claim, type Extractor } from '../read/claims.ts';
import { labelType, notAnId, shapeType, typeWord } from '../read/id-shapes.ts';
import { cleanResourceId, pathOf, resourcesInPath } from '../read/values.ts';

/**
 * The page URL: `/orders/ORD-1024` names an order, `?order=ORD-2003` too. The deepest
 * collection/id pair is the page's subject. A collection must be a resource word or a plural
 * (`/orders/`, `/products/`), and a slug is not an id: `/gallery/html/order-2003` and
 * `/shoes/trail-runner-3` name nothing.
 */

/** `trail-runner-3`, `spring-sale-2026`: two or more words of letters, a name rather than an id. */
const SLUG = /^(?:[a-z]{3,}-){2,}|^[a-z]{3,}-[a-z]{3,}(?:-|$)/;

function collectionOk(segment: string): boolean {
  return typeWord(segment) !== undefined || /[^s]s$/i.test(segment);
}

/** The deepest collection/id pair whose collection names resources and whose id is not a slug. */
function fromPath(url: string): { type: string; id: string; why: string } | undefined {
  const path = pathOf(url);
  if (!path) return undefined;
  const segments = path.split('/').filter(Boolean);
  for (let i = segments.length - 2; i >= 0; i--) {
    if (!collectionOk(segments[i]!)) continue;
    const named = resourcesInPath(`/${segments[i]}/${segments[i + 1]}`)[0];
    if (named && !SLUG.test(named.id)) return { ...named, why: `URL path ${quote(path)}` };
  }
  return undefined;
}

/** `?order=ORD-2003`, `?booking_ref=K7QX2P`, `?id=INV-2024-118` (typed by its shape only). */
function fromQuery(url: string): { type: string; id: string; why: string } | undefined {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  for (const [key, value] of params) {
    const id = cleanResourceId(value);
    if (!id || notAnId(id)) continue;
    const type = labelType(key.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2')) ?? (/^id$/i.test(key) ? shapeType(id) : undefined);
    if (type) return { type, id, why: `URL query ${quote(`${key}=${value}`)}` };
  }
  return undefined;
}

export const extractUrl: Extractor = ({ snapshot }) => {
  const path = fromPath(snapshot.url);
  const query = path ? undefined : fromQuery(snapshot.url);
  const found = path ?? query;
  if (!found) return [];
  // The path is the site's own address for the resource; a query parameter may be a filter or a referrer.
  const strength = path ? 1 : 0.8;
  const claims: Claim[] = [
    { field: FIELD.resourceType, value: found.type, source: 'url', strength, why: found.why },
    { field: FIELD.resourceId, value: found.id, source: 'url', strength, why: found.why },
  ];
  return claims;
};
