import { cleanText } from '../clean-text.ts';

/** Text → the snake_case names the protocol uses (states, conflicts, fact names). */

/**
 * `Awaiting payment` → `awaiting_payment`, `OrderPaymentDue` → `order_payment_due`,
 * `Shipped!` → `shipped`, `Annulé` → `annule`. Returns undefined when nothing usable is left.
 */
export function toSnakeCase(text: string): string | undefined {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // strip diacritics
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2') // camelCase boundaries
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2') // ABCDef → ABC Def
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length === 0) return undefined;
  let name = words.join('_');
  if (!/^[a-z]/.test(name)) name = `n_${name}`; // snake_case must start with a letter
  return name.slice(0, 128).replace(/_+$/, '');
}

/** `orders` → `order`, `categories` → `category`, `statuses` → `status`; good enough for URL segments. */
export function singular(word: string): string {
  if (/ies$/.test(word) && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(sses|uses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (/s$/.test(word) && word.length > 3) return word.slice(0, -1);
  return word;
}

/** Values that say "not known yet" rather than a state (`Live status: checking…`). */
export function isTransientValue(text: string): boolean {
  const t = cleanText(text).toLowerCase();
  if (t === '' || /(\u2026|\.\.\.)$/.test(t)) return true;
  return /^(loading|checking|updating|refreshing|fetching|unavailable|unknown|n\/?a|none|-+|—|\?)$/.test(t);
}
