import { FIELD, quote, type Claim, type Extractor } from '../read/claims.ts';
import { pathOf, resourcesInPath } from '../read/values.ts';

/** The page URL: `/orders/ORD-1024` names an order. The deepest collection/id pair is the page's subject. */
export const extractUrl: Extractor = ({ snapshot }) => {
  const path = pathOf(snapshot.url);
  const resource = path ? resourcesInPath(path).at(-1) : undefined;
  if (!resource) return [];
  const why = `URL path ${quote(path!)}`;
  const claims: Claim[] = [
    { field: FIELD.resourceType, value: resource.type, source: 'url', strength: 1, why },
    { field: FIELD.resourceId, value: resource.id, source: 'url', strength: 1, why },
  ];
  return claims;
};
