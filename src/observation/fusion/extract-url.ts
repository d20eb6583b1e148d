import { FIELD, quote, type Claim, type Extractor } from '../read/claims.ts';
import { labelMarksId, labelType, notAnId, plainNumberIsId, shapeType, typeWord } from '../read/id-shapes.ts';
import { cleanResourceId, pathOf, resourcesInPath } from '../read/values.ts';

/**
 * The page URL: `/orders/ORD-1024` names an order, `?order=ORD-2003` too. The deepest
 * collection/id pair is the page's subject. A collection must be a resource word or a plural
 * (`/orders/`, `/products/`), and a slug is not an id: `/gallery/html/order-2003` and
 * `/shoes/trail-runner-3` name nothing.
 *
 * A resource word in the address does not make its value an id: `?order=0,1,2,3` is a list's
 * arrangement, `?order=desc` a sort direction, `?sort_order=2` a position, `?return=https://…` the
 * way back, `?cart=1` a switch. Only a value shaped like an id (`urlId`) names a resource.
 */

/** `trail-runner-3`, `spring-sale-2026`: two or more words of letters, a name rather than an id. */
const SLUG = /^(?:[a-z]{3,}-){2,}|^[a-z]{3,}-[a-z]{3,}(?:-|$)/;

/**
 * What ids are made of in an address: letters, digits, `-`, `_`, `.` (`ORD-1024`, `K7QX2P`,
 * `a1b2_c3`). A comma or semicolon makes a list (`0,1,2,3`, `name,asc`), a space free text,
 * braces or brackets JSON, a slash or colon another address.
 */
const ID_CHARS = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A sort direction, alone or after a field: `desc`, `price_asc`, `created.descending`. */
const DIRECTION = /(?:^|[._-])(?:asc|desc|ascending|descending)$/i;

/**
 * Words that make a parameter about arrangement, not about a resource: `sort_order`,
 * `menu_order`, `display_order`, `list_order`, `position`, `rank` (the resource word "order" is
 * also the word for a sequence).
 */
const ARRANGEMENT = new Set(['sort', 'sorted', 'sorting', 'display', 'menu', 'list', 'column', 'row', 'tab', 'position', 'pos', 'rank', 'index', 'idx', 'seq', 'sequence', 'direction', 'dir']);

/** The value of a URL segment or parameter when it is shaped like an id, else undefined. */
function urlId(value: string): string | undefined {
  const id = cleanResourceId(value);
  if (!id || !ID_CHARS.test(id) || DIRECTION.test(id) || notAnId(id)) return undefined;
  return id;
}

/** A query key in words: `order_id` → "order id", `sortOrder` → "sort Order". */
const keyWords = (key: string) =>
  key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim();

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
    // The collection segment marks the id, so `/orders/7` is order 7; `/orders/0,1,2` and `/bookings/2026-06-16` are not ids.
    if (named && !SLUG.test(named.id) && urlId(named.id)) return { ...named, why: `URL path ${quote(path)}` };
  }
  return undefined;
}

/** The type a query key names for its value: "order id" → order; "sort order" and "order by" → none. */
function keyType(words: string): string | undefined {
  if (words.split(/\s+/).some((w) => ARRANGEMENT.has(w.toLowerCase()))) return undefined;
  return labelType(words);
}

/**
 * `?order=ORD-2003`, `?booking_ref=K7QX2P`, `?order_id=7`, `?id=INV-2024-118` (typed by its shape
 * only). A bare number needs a marked key or the length of an id: `?order=2` is a position.
 */
function fromQuery(url: string): { type: string; id: string; why: string } | undefined {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  for (const [key, value] of params) {
    const id = urlId(value);
    if (!id) continue;
    const words = keyWords(key);
    const type = keyType(words) ?? (/^id$/i.test(key) ? shapeType(id) : undefined);
    if (type && plainNumberIsId(id, labelMarksId(words))) return { type, id, why: `URL query ${quote(`${key}=${value}`)}` };
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
