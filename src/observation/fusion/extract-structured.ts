import type { SnapshotStructuredData } from '../../protocol/snapshot.ts';
import { FIELD, quote, type Claim, type Extractor } from '../read/claims.ts';
import { itemClaims } from './items.ts';
import { isObject, pick, readDate, readItems, readMoney, readMoneyField, readState, readString, type Json } from '../read/json-read.ts';
import { toSnakeCase } from '../read/normalize.ts';
import { cleanResourceId } from '../read/values.ts';

/**
 * schema.org data (JSON-LD or microdata): `Order` with `orderNumber` and `orderStatus`
 * (`https://schema.org/OrderPaymentDue` → awaiting_payment), reservations, invoices.
 */

const ID_KEYS = ['orderNumber', 'reservationNumber', 'confirmationNumber', 'invoiceNumber', 'identifier'];
const STATE_KEYS = ['orderStatus', 'reservationStatus', 'paymentStatus'];

function typeName(item: Json, declared?: string): string | undefined {
  const raw = item['@type'] ?? declared;
  const t = Array.isArray(raw) ? raw.find((x) => typeof x === 'string') : raw;
  if (typeof t !== 'string') return undefined;
  const short = t.replace(/^https?:\/\/schema\.org\//, '');
  if (/Reservation$/.test(short)) return 'reservation';
  if (short === 'Order' || short === 'Invoice') return toSnakeCase(short);
  return undefined;
}

/** Top-level items, `@graph` members and arrays of items, each with its schema.org type. */
function items(blocks: readonly SnapshotStructuredData[]): Array<{ item: Json; type: string; kind: string }> {
  const out: Array<{ item: Json; type: string; kind: string }> = [];
  const visit = (value: unknown, declared: string | undefined, kind: string) => {
    if (Array.isArray(value)) return value.slice(0, 50).forEach((v) => visit(v, undefined, kind));
    if (!isObject(value)) return;
    if (Array.isArray(value['@graph'])) return visit(value['@graph'], undefined, kind);
    const type = typeName(value, declared);
    if (type) out.push({ item: value, type, kind });
  };
  for (const block of blocks) visit(block.data, block.type, block.kind);
  return out;
}

export const extractStructured: Extractor = ({ snapshot, resource }) => {
  const claims: Claim[] = [];
  const found = items(snapshot.structuredData);
  for (const { item, type, kind } of found) {
    const rawId = readString(pick(item, ID_KEYS));
    const id = rawId ? cleanResourceId(rawId) : undefined;
    // Several orders on one page (a list): only the one this page is about says anything about it.
    if (resource && id && id !== resource.id) continue;
    const why = `${kind} ${type}${id ? ` ${quote(id)}` : ''}`;
    const push = (field: string, value: string | number | undefined, detail: string) => {
      if (value !== undefined) claims.push({ field, value, source: 'structured_data', strength: 1, why: `${why} ${detail}` });
    };
    push(FIELD.resourceType, type, '@type');
    push(FIELD.resourceId, id, 'number');
    // Without a resource, only the page's one item (no id to tell it by) speaks for the page.
    if (!resource && (id !== undefined || found.length !== 1)) continue;
    push(FIELD.state, readState(pick(item, STATE_KEYS)), 'status');
    push('placed_at', readDate(pick(item, ['orderDate'])), 'orderDate');
    const due = pick(item, ['totalPaymentDue']) ?? (isObject(item.partOfInvoice) ? pick(item.partOfInvoice, ['totalPaymentDue']) : undefined);
    const offer = isObject(item.acceptedOffer) ? item.acceptedOffer : undefined;
    push(FIELD.total, readMoney(due) ?? readMoneyField(item, ['totalPrice', 'price']) ?? (offer ? readMoney(pick(offer, ['price'])) : undefined), 'total');
    const lines = readItems(item, ['orderedItem', 'referencesOrder']);
    if (lines && lines.length > 0) claims.push(...itemClaims(lines, 'structured_data', 1, `${why} orderedItem`));
  }
  return claims;
};
