import { statesAgree } from '../read/states.ts';
import { FIELD } from '../read/claims.ts';

/** How the values of a field are compared: two sources agree when their values mean the same. */
export type FieldKind = 'state' | 'money' | 'date' | 'count' | 'items' | 'text';

export function fieldKind(field: string): FieldKind {
  if (field === FIELD.state) return 'state';
  if (field === FIELD.total || field === FIELD.subtotal || /(_price|_amount|_total)$/.test(field)) return 'money';
  if (/_at$|_date$/.test(field)) return 'date';
  if (field === FIELD.itemCount || field === FIELD.totalQuantity) return 'count';
  if (field === FIELD.lineItems) return 'items';
  return 'text';
}

/** `name ×qty; name ×qty` → parts; the form extractors use for line items. */
function parseItems(value: string): Array<{ name: string; quantity: number }> {
  return value
    .split('; ')
    .filter(Boolean)
    .map((part) => {
      const m = /^(.*) ×(\d+)$/.exec(part);
      return { name: (m?.[1] ?? part).toLowerCase(), quantity: Number(m?.[2] ?? NaN) };
    });
}

export function formatItems(items: ReadonlyArray<{ name: string; quantity: number }>): string {
  return items
    .map((i) => `${i.name.replace(/;/g, ',').trim()} ×${i.quantity}`)
    .join('; ')
    .slice(0, 4000);
}

/** Line items agree when they are the same count, with the same quantities, and each name contains the other's. */
function itemsAgree(a: string, b: string): boolean {
  const x = parseItems(a);
  const y = parseItems(b);
  return (
    x.length === y.length &&
    x.every((item, i) => {
      const other = y[i]!;
      return item.quantity === other.quantity && (item.name.includes(other.name) || other.name.includes(item.name));
    })
  );
}

export function valuesAgree(kind: FieldKind, a: unknown, b: unknown): boolean {
  if (kind === 'state' && typeof a === 'string' && typeof b === 'string') return statesAgree(a, b);
  if (kind === 'money' && typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 0.005;
  if (kind === 'items' && typeof a === 'string' && typeof b === 'string') return itemsAgree(a, b);
  if (kind === 'text' && typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  return a === b;
}
