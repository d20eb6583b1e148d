import { canonicalState } from './states.ts';
import { parseDate, parseMoney, roundCents } from './values.ts';
import type { LineItem } from './line-item.ts';

/** Reading loosely-shaped JSON (API payloads, JSON-LD) by common key names. Page data: read, never trusted. */

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** First present key, case-insensitively and ignoring `_`/`-` (`orderNumber` = `order_number`). */
export function pick(obj: Json, keys: readonly string[]): unknown {
  const norm = (k: string) => k.toLowerCase().replace(/[_-]/g, '');
  const wanted = keys.map(norm);
  for (const w of wanted) {
    for (const [k, v] of Object.entries(obj)) if (norm(k) === w && v !== undefined && v !== null) return v;
  }
  return undefined;
}

export function readString(v: unknown): string | undefined {
  if (typeof v === 'string') return v.slice(0, 4096);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

export function readState(v: unknown): string | undefined {
  const s = readString(v);
  return s ? canonicalState(s) : undefined;
}

export function readDate(v: unknown): string | undefined {
  const s = readString(v);
  return s ? parseDate(s) : undefined;
}

/** Money in major units from a number, a `"$12.50"` string, or a schema.org PriceSpecification. */
export function readMoney(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return roundCents(v);
  if (typeof v === 'string') return /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? roundCents(Number(v)) : parseMoney(v);
  if (isObject(v)) return readMoney(pick(v, ['price', 'value', 'amount']));
  return undefined;
}

/** `total` in major units, or `total_cents` in minor units. */
export function readMoneyField(obj: Json, names: readonly string[]): number | undefined {
  const cents = pick(
    obj,
    names.map((n) => `${n}_cents`),
  );
  if (typeof cents === 'number' && Number.isFinite(cents)) return roundCents(cents / 100);
  return readMoney(pick(obj, names));
}

const QUANTITY_KEYS = ['quantity', 'qty', 'orderQuantity', 'count'];
const NAME_KEYS = ['name', 'title', 'sku', 'productName', 'description'];

/** Line items from `items`, `line_items`, schema.org `orderedItem` (an OrderItem or a Product). */
export function readItems(obj: Json, keys: readonly string[]): LineItem[] | undefined {
  const raw = pick(obj, keys);
  const list = Array.isArray(raw) ? raw : isObject(raw) ? [raw] : undefined;
  if (!list) return undefined;
  const items: LineItem[] = [];
  for (const entry of list.slice(0, 500)) {
    if (!isObject(entry)) continue;
    const inner = isObject(entry.orderedItem) ? entry.orderedItem : entry;
    const q = pick(entry, QUANTITY_KEYS);
    const quantity = typeof q === 'number' ? q : typeof q === 'string' && /^\d+$/.test(q) ? Number(q) : isObject(q) ? Number(pick(q, ['value'])) : 1;
    const name = readString(pick(inner, NAME_KEYS)) ?? readString(pick(entry, NAME_KEYS)) ?? '?';
    const sku = readString(pick(inner, ['sku'])) ?? readString(pick(entry, ['sku']));
    if (!Number.isInteger(quantity) || quantity < 0) continue;
    items.push({ name: sku && !name.includes(sku) ? `${name} · ${sku}` : name, quantity });
  }
  return items;
}
