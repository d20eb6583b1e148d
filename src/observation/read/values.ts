import { cleanText } from '../clean-text.ts';
import { singular, toSnakeCase } from './normalize.ts';

/** Parsers for the few value kinds that facts carry: money, dates, counts, resource ids. */

const MONEY = /(?:([$€£¥])\s?(-?\d[\d,]*(?:\.\d{1,2})?)|(-?\d[\d,]*(?:\.\d{1,2})?)\s?(USD|EUR|GBP|JPY|CAD|AUD|CHF)\b)/;

/** `$1,234.50` / `1234.50 EUR` → 1234.5 (major units, rounded to cents); undefined if none. */
export function parseMoney(text: string): number | undefined {
  const m = MONEY.exec(text);
  if (!m) return undefined;
  const digits = (m[2] ?? m[3] ?? '').replace(/,/g, '');
  const n = Number(digits);
  return Number.isFinite(n) ? roundCents(n) : undefined;
}

export function roundCents(n: number): number {
  return Math.round(n * 100) / 100;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

function isoDate(y: number, m: number, d: number): string | undefined {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2200) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function monthIndex(name: string): number {
  const n = name.toLowerCase().replace(/\.$/, '');
  return MONTHS.findIndex((m) => m === n || (n.length >= 3 && m.startsWith(n))) + 1;
}

/**
 * A calendar date (`YYYY-MM-DD`) from ISO text, `July 28, 2026` or `28 July 2026`. Dates are
 * compared at day precision: pages print days, APIs print instants.
 */
export function parseDate(text: string): string | undefined {
  const iso = /\b(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?/.exec(text);
  if (iso) {
    // An instant is reported as its UTC day, like the pages (which format in UTC) print it.
    if (iso[4]) {
      const t = Date.parse(iso[0]);
      if (Number.isFinite(t)) return new Date(t).toISOString().slice(0, 10);
    }
    return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  }
  const mdy = /\b([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})\b/.exec(text);
  if (mdy && monthIndex(mdy[1]!) > 0) return isoDate(Number(mdy[3]), monthIndex(mdy[1]!), Number(mdy[2]));
  const dmy = /\b(\d{1,2}) ([A-Za-z]{3,9})\.?,? (\d{4})\b/.exec(text);
  if (dmy && monthIndex(dmy[2]!) > 0) return isoDate(Number(dmy[3]), monthIndex(dmy[2]!), Number(dmy[1]));
  return undefined;
}

/** A whole non-negative count (`2`, ` 12 `); undefined for anything else. */
export function parseCount(text: string): number | undefined {
  const t = cleanText(text);
  return /^\d{1,7}$/.test(t) ? Number(t) : undefined;
}

/** Printable id as the protocol's ResourceId allows (no spaces, starts alphanumeric, ≤ 256). */
export function cleanResourceId(raw: string): string | undefined {
  const id = raw.trim().replace(/^#/, '');
  return /^[A-Za-z0-9][\x21-\x7e]{0,255}$/.test(id) && id !== '*' ? id : undefined;
}

/** Ids carry a digit (`ORD-1024`, `42`, `a1b2`): it keeps words like "summary" out. */
function looksLikeId(raw: string): boolean {
  return /\d/.test(raw) && cleanResourceId(raw) !== undefined && raw.length <= 64;
}

export interface PathResource {
  type: string;
  id: string;
}

/**
 * Resources named in a path, outermost first: a plural collection segment followed by an id-like
 * segment. `/orders/ORD-1024/items/CER-1` → [order ORD-1024, item CER-1].
 */
export function resourcesInPath(pathname: string): PathResource[] {
  const segments = pathname
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  const found: PathResource[] = [];
  for (let i = 0; i + 1 < segments.length; i++) {
    const collection = segments[i]!;
    const id = segments[i + 1]!;
    if (!/^[A-Za-z][A-Za-z_-]{1,40}$/.test(collection) || !looksLikeId(id)) continue;
    const type = toSnakeCase(singular(collection.toLowerCase()));
    const clean = cleanResourceId(id);
    if (type && clean && type !== 'api' && !/^v\d+$/.test(type)) found.push({ type, id: clean });
  }
  return found;
}

/** Pathname of an absolute or relative URL, or undefined. */
export function pathOf(url: string, base?: string): string | undefined {
  try {
    return new URL(url, base).pathname;
  } catch {
    return undefined;
  }
}
