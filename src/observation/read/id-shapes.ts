import { cleanText } from '../clean-text.ts';
import { singular } from './normalize.ts';
import { cleanResourceId } from './values.ts';

/**
 * How real sites name a resource: a word that names a kind of resource ("Order", "Booking
 * reference") next to an id, or an id whose prefix says what it is (`ORD-2003`, `INV-2024-118`).
 * A number after any other word is a model or a name, not an id: "Trail Runner 3", "iPhone 15",
 * "Windows 11", "Room 2", "Spring 2026" name no resource.
 */

/** Words that name a kind of resource (singular, lower case) → the type Steward reports. */
const TYPE_WORDS: ReadonlyMap<string, string> = new Map([
  ...[
    'order',
    'invoice',
    'booking',
    'reservation',
    'ticket',
    'appointment',
    'account',
    'transaction',
    'payment',
    'shipment',
    'return',
    'refund',
    'case',
    'issue',
    'incident',
    'user',
    'customer',
    'member',
    'patient',
    'claim',
    'subscription',
    'quote',
    'receipt',
    'contract',
    'policy',
    'transfer',
    'request',
    'application',
    'itinerary',
    'cart',
  ].map((w): [string, string] => [w, w]),
  ['pnr', 'booking'],
]);

/** Id prefixes that say what the id names (`ORD-2003` is an order). Upper case, as sites print them. */
const PREFIX_TYPES: ReadonlyMap<string, string> = new Map([
  ['ORD', 'order'],
  ['ORDER', 'order'],
  ['INV', 'invoice'],
  ['BK', 'booking'],
  ['BKG', 'booking'],
  ['BOOK', 'booking'],
  ['RES', 'reservation'],
  ['RSV', 'reservation'],
  ['TKT', 'ticket'],
  ['TCK', 'ticket'],
  ['TIX', 'ticket'],
  ['APT', 'appointment'],
  ['APPT', 'appointment'],
  ['ACC', 'account'],
  ['ACCT', 'account'],
  ['TXN', 'transaction'],
  ['TRX', 'transaction'],
  ['PAY', 'payment'],
  ['PMT', 'payment'],
  ['SHP', 'shipment'],
  ['SHIP', 'shipment'],
  ['RMA', 'return'],
  ['RET', 'return'],
  ['RFD', 'refund'],
  ['CASE', 'case'],
  ['CS', 'case'],
  ['INC', 'incident'],
  ['CUST', 'customer'],
  ['CUS', 'customer'],
  ['USR', 'user'],
  ['SUB', 'subscription'],
  ['CLM', 'claim'],
  ['RCPT', 'receipt'],
  ['CRT', 'cart'],
  ['CART', 'cart'],
  ['EXP', 'expense_report'],
]);

/** Words between a type word and its id: "Order **#** 12345", "Invoice **number** …", "Booking **reference**: …". */
const MARKERS = new Set(['#', 'no', 'no.', 'nr', 'nr.', 'n°', 'number', 'num', 'id', 'ref', 'ref.', 'reference', 'code', 'locator', ':']);

/** Labels that name a booking code without the word "booking": "PNR", "Record locator". */
const BOOKING_LABEL = /^(?:pnr|record locator|confirmation code|reservation code)$/i;

/** `K7QX2P`, `QXZKTP`: five to eight capitals and digits, as airlines and hotels print booking references. */
const BOOKING_CODE = /^(?=[A-Z0-9]*[A-Z])[A-Z0-9]{5,8}$/;

/** The kind of resource a word names ("Orders" → order; a crumb "My cases" by its last word), or undefined. */
export function typeWord(word: string): string | undefined {
  const w = (word.trim().split(/\s+/).at(-1) ?? '').toLowerCase().replace(/[^a-z]/g, '');
  return w ? TYPE_WORDS.get(singular(w)) : undefined;
}

/** The kind of resource an id's prefix names: `ORD-2003` → order, `INV-2024-118` → invoice. */
export function shapeType(id: string): string | undefined {
  const m = /^([A-Z]{2,5})[-_]?(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]*$/.exec(id);
  return m ? PREFIX_TYPES.get(m[1]!) : undefined;
}

/**
 * Tokens that carry digits but are not ids: dates, times, prices, decimals, percentages and
 * phone numbers. `plainNumberOk` allows a bare number like `2003` (after "Order number:" it is
 * an id; after "Invoices" it is a year).
 */
export function notAnId(token: string): boolean {
  if (/^\d{4}-\d{2}(?:-\d{2})?$|^\d{1,2}[/.]\d{1,2}[/.]\d{2,4}$/.test(token)) return true; // dates
  if (/^\d{1,2}:\d{2}/.test(token)) return true; // times
  if (/^[$€£¥]|^\d+[.,]\d+%?$|%$/.test(token)) return true; // money, decimals, percentages
  if (/^\+\d|^\(?\d{3}\)?-\d{3}-\d{4}$|^\d{3}-\d{4}$|^1-\d{3}-\d{3}-\d{4}$/.test(token)) return true; // phone numbers
  if (/^v\d/i.test(token)) return true; // versions
  return !/\d/.test(token) || cleanResourceId(token) === undefined || token.length > 64;
}

/** "Orders", "Returns": a type word in the plural (a list or a count, not one resource). */
function isPlural(word: string): boolean {
  const w = word.toLowerCase().replace(/[^a-z]/g, '');
  return w.length > 1 && singular(w) !== w && typeWord(w) !== undefined;
}

/**
 * A bare number that counts things rather than naming one: before a count word ("240 items",
 * "30 days") or after a plural type word no marker ties it to ("Returns: 14"; "Orders #12" names one).
 */
function isCount(id: string, next: string | undefined, before: string | undefined, marked: boolean): boolean {
  if (!/^\d+$/.test(id)) return false;
  return COUNT_NOUN.test(next ?? '') || (!marked && before !== undefined && isPlural(before));
}

/** A bare number is an id only when marked ("#2003", "number 2003") or long enough not to be a model number, and not a year. */
export function plainNumberIsId(id: string, marked: boolean): boolean {
  if (!/^\d+$/.test(id)) return true;
  if (marked) return true;
  return id.length >= 3 && !/^(?:19|20)\d{2}$/.test(id);
}

export interface NamedId {
  type: string;
  id: string;
  /** `word`: a type word stands before it; `shape`: its prefix says what it is. */
  by: 'word' | 'shape';
}

/** A number followed by one of these is a count: "240 items", "3 nights", "312 reviews". */
const COUNT_NOUN =
  /^(?:items?|lines?|results?|products?|pieces?|pcs|units?|entries|reviews?|orders?|tickets?|people|guests?|nights?|adults?|children|seats?|days?|hours?|minutes?|members?|users?|files?|messages?|pages?)\b/i;

const SEPARATOR = /^[·|–—›»>/\\:,;()[\]]+$/;

function tokens(text: string): string[] {
  return cleanText(text)
    .split(/\s+/)
    .flatMap((t) => (/^#./.test(t) ? ['#', t.slice(1)] : [t])) // "#12345" → marker + id
    .flatMap((t) => (/.:$/.test(t) ? [t.slice(0, -1), ':'] : [t])) // "Order:" → word + marker
    .map((t) => (SEPARATOR.test(t) || t === '#' ? t : t.replace(/^[([“"']+|[)\]”"',;:!?.…]+$/g, '')))
    .filter(Boolean);
}

/**
 * Every resource a short text names: "Order ORD-1024", "Tracking for order ORD-1024",
 * "Checkout for ORD-2003", "Appointment #42", "Checkout · ORD-2003". `contextType` types an id
 * that neither a word nor its shape types (a breadcrumb's "Orders › 2003").
 */
export function namedIds(text: string, contextType?: string): NamedId[] {
  const out: NamedId[] = [];
  const words = tokens(text);
  words.forEach((token, i) => {
    if (SEPARATOR.test(token) || token === '#' || notAnId(token)) return;
    let j = i - 1;
    let marked = false;
    /** Marked by more than a colon ("Orders: 12" is a count, "Orders #12" an id). */
    let markedById = false;
    while (j >= 0 && j >= i - 2 && MARKERS.has(words[j]!.toLowerCase())) {
      marked = true;
      markedById ||= words[j] !== ':';
      j--;
    }
    const word = j >= 0 ? typeWord(words[j]!) : undefined;
    const id = cleanResourceId(token);
    if (!id || isCount(id, words[i + 1], word ? words[j] : undefined, markedById)) return;
    if (word && plainNumberIsId(id, marked)) out.push({ type: word, id, by: 'word' });
    else if (shapeType(id)) out.push({ type: shapeType(id)!, id, by: 'shape' });
    else if (contextType && plainNumberIsId(id, true)) out.push({ type: contextType, id, by: 'word' });
  });
  return out;
}

/**
 * A label that names an id ("Order number", "Booking reference", "Invoice #", "PNR") → the type
 * it names; undefined for labels about something else ("Order date", "Customer service").
 * `bare`: a label without a colon (a key span beside a value span) must be the type word alone
 * or say it is an id ("Account", "Booking reference"): "Awaiting payment" is a badge.
 */
export function labelType(label: string, bare = false): string | undefined {
  const clean = cleanText(label)
    .replace(/[:#]+$/, '')
    .trim();
  if (BOOKING_LABEL.test(clean)) return 'booking';
  const words = clean.split(/\s+/).filter((w) => w !== '#');
  const before = words.length;
  while (words.length > 1 && MARKERS.has(words.at(-1)!.toLowerCase())) words.pop();
  if (bare && words.length > 1 && words.length === before) return undefined;
  return words.length <= 3 ? typeWord(words.at(-1) ?? '') : undefined;
}

/** The label ends with a word saying its value is an id: "Order number", "order id", "Booking ref" (not "Order" alone). */
export function labelMarksId(label: string): boolean {
  const last = cleanText(label).split(/\s+/).at(-1)?.toLowerCase() ?? '';
  return MARKERS.has(last) || BOOKING_LABEL.test(cleanText(label));
}

/**
 * The id a labelled value holds: its first token ("2003 (placed June 3)" → 2003; "Placed on July
 * 28" → none); a booking code may be letters only. A count is no id: a number before a count
 * word ("Free returns: 30 days") or a bare number under a plural label ("Orders: 12").
 */
export function labelledId(value: string, type: string | undefined, label: string): string | undefined {
  const words = tokens(value).filter((t) => !SEPARATOR.test(t));
  const at = words.findIndex((t) => t !== '#');
  const first = words[at];
  if (!first) return undefined;
  if (!notAnId(first)) {
    const id = cleanResourceId(first);
    return id !== undefined && isCount(id, words[at + 1], cleanText(label).split(/\s+/).at(-1), at > 0 || labelMarksId(label)) ? undefined : id;
  }
  return type === 'booking' && BOOKING_CODE.test(first) ? first : undefined;
}
