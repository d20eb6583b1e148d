import { canonicalState, isKnownState } from '../read/states.ts';
import { isTransientValue } from '../read/normalize.ts';
import { parseDate, parseMoney } from '../read/values.ts';

/**
 * What a label means: `Status` → the state, `Order total` → the total, `Placed on` → placed_at.
 * Shared by the DOM and accessibility extractors so both read labels the same way.
 */

const STATE_LABEL = /^(?:[a-z]+ ){0,2}(?:status|state)$/i;
const TOTAL_LABEL = /^(?:order |grand |amount |invoice )?total(?: due| amount| price| to pay)?$/i;
const SUBTOTAL_LABEL = /^sub-?total$/i;

const DATE_LABELS: Array<[RegExp, string]> = [
  [/^(?:order )?(?:placed|ordered|order date|date placed|placed on|ordered on)$/i, 'placed_at'],
  [/^(?:created|created on|created at)$/i, 'created_at'],
  [/^(?:due|due date|due on|payment due)$/i, 'due_at'],
  [/^(?:paid|paid on|payment received)$/i, 'paid_at'],
  [/^(?:shipped|shipped on|ship date)$/i, 'shipped_at'],
  [/^(?:delivered|delivered on|delivery date)$/i, 'delivered_at'],
  [/^(?:cancell?ed|cancell?ed on)$/i, 'cancelled_at'],
];

/** `Total`, `Order total`, `Amount due`-like labels (not `Subtotal`). */
export function isTotalLabel(label: string): boolean {
  return TOTAL_LABEL.test(label.trim());
}

export interface LabelReading {
  field: string;
  value: string | number;
}

/** Reads a labelled value as a fact, or undefined when the label means nothing Steward tracks. */
export function readLabelled(label: string, value: string): LabelReading | undefined {
  const l = label.trim();
  if (STATE_LABEL.test(l)) {
    // States are words: "ORD-1025" or "3 items" after a Status label is a layout accident.
    if (isTransientValue(value) || !/^[A-Za-z][A-Za-z _-]{0,39}$/.test(value.trim())) return undefined;
    const state = canonicalState(value);
    return state ? { field: 'state', value: state } : undefined;
  }
  if (SUBTOTAL_LABEL.test(l)) {
    const money = parseMoney(value);
    return money === undefined ? undefined : { field: 'subtotal', value: money };
  }
  if (TOTAL_LABEL.test(l)) {
    const money = parseMoney(value);
    return money === undefined ? undefined : { field: 'total', value: money };
  }
  for (const [re, field] of DATE_LABELS) {
    if (!re.test(l)) continue;
    const date = parseDate(value);
    return date ? { field, value: date } : undefined;
  }
  return undefined;
}

/** A short text that is nothing but a well-known state name (`Shipped`, `Awaiting payment`). */
export function standaloneState(text: string): string | undefined {
  if (text.length > 40 || isTransientValue(text)) return undefined;
  const state = canonicalState(text);
  return state && isKnownState(state) ? state : undefined;
}
