import { FIELD, MAX_CLAIMS_PER_EXTRACTOR, quote, type Claim, type Extractor } from '../read/claims.ts';
import { parseDate } from '../read/values.ts';

/**
 * Sentences in visible prose: "This order was cancelled on June 16, 2026", "Payment received on
 * …", "Shipped with Parcelway on …". Weakest of the page sources: prose is easy to misread.
 */
const STATE_SENTENCES: Array<[RegExp, string]> = [
  [/\b(?:was|has been|is now|is) (cancell?ed)\b/i, 'cancelled'],
  [/\b(?:was|has been|is now|is) (refunded)\b/i, 'refunded'],
  [/\b(?:was|has been|is now|is) (delivered)\b|^delivered on\b/i, 'delivered'],
  [/\b(?:was|has been|is now) (shipped)\b|^shipped (?:with|via|on)\b/i, 'shipped'],
  [/\bpayment (?:received|confirmed)\b|\b(?:was|has been) paid\b/i, 'paid'],
];

const DATE_SENTENCES: Array<[RegExp, string]> = [
  [/\b(?:placed|ordered) on\b/i, 'placed_at'],
  [/\bcancell?ed on\b/i, 'cancelled_at'],
  [/\b(?:payment received|paid) on\b/i, 'paid_at'],
  [/\bshipped (?:with [^.]{1,40} )?on\b/i, 'shipped_at'],
  [/\bdelivered on\b/i, 'delivered_at'],
];

/** A sentence about the page's own subject: "Your order was cancelled…", "This booking is confirmed". */
const ABOUT_THIS_PAGE = /^(?:your|this) (?:order|booking|reservation|subscription|payment|invoice|ticket|appointment|case|account)\b/i;

/**
 * Dates are read on every page; states about an identified resource, or without one only from a
 * sentence about "your order" / "this booking" (a help text or a list's prose says nothing about
 * this page).
 */
export const extractProse: Extractor = ({ snapshot, resource }) => {
  const claims: Claim[] = [];
  for (const block of snapshot.texts) {
    if (claims.length >= MAX_CLAIMS_PER_EXTRACTOR) break;
    if (block.role === 'heading' || block.text.length > 400) continue;
    const why = () => `text ${quote(block.text)}`;
    for (const [re, state] of resource || ABOUT_THIS_PAGE.test(block.text) ? STATE_SENTENCES : []) {
      if (re.test(block.text)) claims.push({ field: FIELD.state, value: state, source: 'text', strength: 0.8, why: why() });
    }
    for (const [re, field] of DATE_SENTENCES) {
      const at = block.text.search(re);
      if (at < 0) continue;
      const date = parseDate(block.text.slice(at));
      if (date) claims.push({ field, value: date, source: 'text', strength: 0.8, why: why() });
    }
  }
  return claims;
};
