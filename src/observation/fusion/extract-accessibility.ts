import { FIELD, MAX_CLAIMS_PER_EXTRACTOR, quote, type Claim, type Extractor } from '../read/claims.ts';
import { readLabelled, standaloneState } from './field-labels.ts';
import { cleanText } from '../clean-text.ts';
import { LIVE_ROLES } from '../../protocol/snapshot.ts';
import { headingResource, labelledValues } from '../read/page-text.ts';
import { parseMoney } from '../read/values.ts';
import { steadyTexts } from './page-values.ts';

/**
 * What the computed accessibility tree says: headings that name the resource, status/alert
 * regions announcing a state, and the text equivalents of canvases.
 */
export const extractAccessibility: Extractor = ({ snapshot }) => {
  const claims: Claim[] = [];
  for (const block of snapshot.texts) {
    if (claims.length >= MAX_CLAIMS_PER_EXTRACTOR) break;
    if (block.role !== 'heading') continue;
    const named = headingResource(block.text);
    if (!named) continue;
    const strength = block.level === 1 ? 1 : block.level === 2 ? 0.8 : 0.6;
    const why = `heading level ${block.level ?? '?'} ${quote(block.text)}`;
    claims.push(
      { field: FIELD.resourceType, value: named.type, source: 'accessibility', strength, ref: block.ref, why },
      { field: FIELD.resourceId, value: named.id, source: 'accessibility', strength, ref: block.ref, why },
    );
  }

  // Announcements the page keeps changing on their own (marked volatile) say nothing lasting.
  const live = steadyTexts(snapshot)
    .filter((t) => t.role !== undefined && LIVE_ROLES.has(t.role))
    .slice(0, MAX_CLAIMS_PER_EXTRACTOR);
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
