import type { Evidence } from '../../protocol/resource.ts';
import { FIELD, type Claim } from '../read/claims.ts';
import type { LineItem } from '../read/line-item.ts';
import { formatItems } from './field-kinds.ts';

/**
 * Line items as four comparable facts: how many lines, how many units, the quantities in order,
 * and the lines themselves. Counts and quantities compare across sources whatever each one
 * calls the products; the names make "one product swapped for another" visible.
 */
export function itemClaims(items: readonly LineItem[], source: Evidence, strength: number, why: string, ref?: string): Claim[] {
  const base = { source, strength, why, ...(ref ? { ref } : {}) };
  return [
    { ...base, field: FIELD.itemCount, value: items.length },
    { ...base, field: FIELD.totalQuantity, value: items.reduce((n, i) => n + i.quantity, 0) },
    {
      ...base,
      field: FIELD.lineQuantities,
      value: items
        .map((i) => i.quantity)
        .join(',')
        .slice(0, 4000),
    },
    { ...base, field: FIELD.lineItems, value: formatItems(items) },
  ];
}
