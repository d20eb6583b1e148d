import { FIELD, MAX_CLAIMS_PER_EXTRACTOR, quote, type Claim, type Extractor } from '../read/claims.ts';
import { readLabelled, standaloneState } from './field-labels.ts';
import { cleanText } from '../clean-text.ts';
import { LIVE_ROLES } from '../../protocol/snapshot.ts';
import { labelledValues } from '../read/page-text.ts';
import { parseMoney } from '../read/values.ts';

/**
 * What the computed accessibility tree says: status/alert regions announcing a state, and the
 * text equivalents of canvases.
 */
export const extractAccessibility: Extractor = ({ snapshot }) => {
  const claims: Claim[] = [];

  // Announcements the page keeps changing on their own (marked volatile) never reach here (fuse.ts).
  const live = snapshot.texts.filter((t) => t.role !== undefined && LIVE_ROLES.has(t.role)).slice(0, MAX_CLAIMS_PER_EXTRACTOR);
  for (const l of labelledValues(live)) {
    const reading = readLabelled(l.label, l.value);
    if (reading) claims.push({ ...reading, source: 'accessibility', strength: 0.8, ref: l.ref, why: `${l.role} region ${quote(`${l.label}: ${l.value}`)}` });
  }
  for (const block of live) {
    const state = standaloneState(cleanText(block.text));
    if (state) claims.push({ field: FIELD.state, value: state, source: 'accessibility', strength: 0.7, ref: block.ref, why: `${block.role} region ${quote(block.text)}` });
  }

  for (const canvas of snapshot.canvases) {
    if (!canvas.hasTextEquivalent || !canvas.label) continue;
    const at = canvas.label.search(/\btotal\b/i); // "Subtotal" has no word boundary before "total"
    const total = at >= 0 ? parseMoney(canvas.label.slice(at)) : undefined;
    if (total !== undefined) {
      claims.push({ field: FIELD.total, value: total, source: 'accessibility', strength: 0.8, ref: canvas.ref, why: `canvas text equivalent ${quote(canvas.label)}` });
    }
  }
  return claims;
};
