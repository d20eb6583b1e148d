import { FIELD, quote, type Claim, type Extractor, type IdentifiedResource } from '../read/claims.ts';
import { itemClaims } from './items.ts';
import { isObject, pick, readDate, readItems, readMoneyField, readState, readString, type Json } from '../read/json-read.ts';
import { pathOf } from '../read/values.ts';

/**
 * Same-origin JSON the page fetched (observed from the main world, bounded): the object whose
 * id is the resource's, at the root of a response or inside a list.
 */

const ID_KEYS = ['id', 'number', 'orderNumber', 'order_id', 'reference', 'uuid'];

function matches(obj: Json, id: string): boolean {
  return readString(pick(obj, ID_KEYS)) === id;
}

/** The resource's object in a payload: the root, `data`/`order`-style wrappers, or a list entry. */
function findResource(json: unknown, resource: IdentifiedResource): { obj: Json; strength: number } | undefined {
  const candidates: Array<[unknown, number]> = [[json, 1]];
  if (isObject(json)) {
    for (const key of ['data', 'result', resource.type, 'item']) candidates.push([json[key], 1]);
    for (const value of Object.values(json)) if (Array.isArray(value)) for (const v of value.slice(0, 500)) candidates.push([v, 0.8]);
  } else if (Array.isArray(json)) {
    for (const v of json.slice(0, 500)) candidates.push([v, 0.8]);
  }
  for (const [value, strength] of candidates) if (isObject(value) && matches(value, resource.id)) return { obj: value, strength };
  return undefined;
}

/**
 * For each field, the newest response that states it: after a single-page app cancels an order,
 * the POST's answer (cancelled) replaces the GET from before (awaiting payment), which is history.
 */
export const extractNetwork: Extractor = ({ network, resource }) => {
  if (!resource) return [];
  const claims: Claim[] = [];
  const stated = new Set<string>();
  for (let i = network.length - 1; i >= 0; i--) {
    const record = network[i]!;
    if (record.status < 200 || record.status >= 300 || record.json === null || record.json === undefined) continue;
    const found = findResource(record.json, resource);
    if (!found) continue;
    const { obj, strength } = found;
    const why = `${record.method} ${quote(pathOf(record.url) ?? record.url)}${record.truncated ? ' (truncated)' : ''}`;
    const push = (field: string, value: string | number | undefined) => {
      if (value === undefined || stated.has(field)) return;
      stated.add(field);
      claims.push({ field, value, source: 'network', strength, why });
    };
    push(FIELD.resourceId, resource.id);
    push(FIELD.state, readState(pick(obj, ['status', 'state', 'order_status', 'orderStatus']) ?? pick(obj, ['status_label'])));
    push(
      FIELD.total,
      readMoneyField(obj, ['total', 'grand_total', 'total_price', 'amount_total', 'total_amount']) ?? (isObject(obj.totals) ? readMoneyField(obj.totals, ['total', 'grand_total']) : undefined),
    );
    push(FIELD.subtotal, readMoneyField(obj, ['subtotal']) ?? (isObject(obj.totals) ? readMoneyField(obj.totals, ['subtotal']) : undefined));
    push('placed_at', readDate(pick(obj, ['placed_at', 'order_date', 'orderDate', 'ordered_at'])));
    const items = record.truncated ? undefined : readItems(obj, ['items', 'line_items', 'lineItems', 'orderedItem', 'products']);
    if (items && items.length > 0 && !stated.has(FIELD.itemCount)) {
      stated.add(FIELD.itemCount);
      claims.push(...itemClaims(items, 'network', strength, why));
    }
  }
  return claims;
};
