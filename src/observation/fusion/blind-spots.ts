import type { PageSnapshot, SnapshotCanvas, SnapshotElement } from '../../protocol/snapshot.ts';
import { FIELD, type Claim, type IdentifiedResource } from '../read/claims.ts';
import { toSnakeCase } from '../read/normalize.ts';
import { parseMoney } from '../read/values.ts';
import { cleanText } from '../clean-text.ts';
import { isTotalLabel } from './field-labels.ts';
import type { ScreenshotSummary } from './screenshot.ts';

/**
 * What Steward could not see, as conflicts: expected values drawn only on a canvas
 * (`canvas_total_not_observed`), canvases without a text equivalent, interactive elements a
 * person could not use, a blank screenshot over a non-empty DOM, and the capture's own blind spots.
 */

/** Resources that, once they list items, have a total somewhere. */
const HAS_TOTAL = new Set(['order', 'invoice', 'cart', 'basket', 'quote', 'bill', 'receipt', 'checkout']);
/** A canvas smaller than this (px²) is decoration (an icon, a sparkline), not content. */
const MIN_CONTENT_CANVAS = 2_500;

export interface BlindSpotInput {
  snapshot: PageSnapshot;
  elements: readonly SnapshotElement[];
  resource?: IdentifiedResource;
  claims: readonly Claim[];
  /** Fields an adapter says this page shows. */
  expected: readonly string[];
  screenshot?: ScreenshotSummary;
}

export interface BlindSpots {
  conflicts: string[];
  /** Pixel hashes of canvases that stand in for an unreadable expected value (they feed the fingerprint). */
  canvasHashes: string[];
}

/** Words that make a page one about paying: its total is expected even when no resource is named. */
const MONEY_PAGE = /\b(?:checkout|check-out|cart|basket|payment|pay|invoices?|bills?|receipt|order summary)\b/i;

/** A page about paying: its URL path, title or first heading says so. */
function isMoneyPage(snapshot: PageSnapshot): boolean {
  const path = (() => {
    try {
      return new URL(snapshot.url).pathname.replace(/[/_-]+/g, ' ');
    } catch {
      return '';
    }
  })();
  const heading = snapshot.texts.find((t) => t.role === 'heading' && t.level === 1)?.text ?? '';
  return MONEY_PAGE.test(path) || MONEY_PAGE.test(snapshot.title) || MONEY_PAGE.test(heading);
}

/** A text that labels a total and says no amount (`Total`, `Order total:`): the amount is drawn elsewhere. */
function labelsTotalWithoutValue(snapshot: PageSnapshot): boolean {
  return snapshot.texts.some((t) => {
    const label = cleanText(t.text).replace(/:$/, '');
    return label.length <= 30 && isTotalLabel(label) && parseMoney(t.text) === undefined;
  });
}

/**
 * Fields the page should show: adapter expectations, a total wherever an order-like resource
 * lists items, and a total on any page that labels one without its amount or is about paying.
 */
function expectedFields(input: BlindSpotInput): string[] {
  const fields = new Set(input.expected);
  const hasItems = input.claims.some((c) => c.field === FIELD.itemCount && typeof c.value === 'number' && c.value > 0);
  if (input.resource && HAS_TOTAL.has(input.resource.type) && hasItems) fields.add(FIELD.total);
  if (labelsTotalWithoutValue(input.snapshot)) fields.add(FIELD.total);
  return [...fields];
}

/** Fields only a canvas can be showing: a page about paying with no total in its text and a content canvas. */
function canvasOnlyFields(input: BlindSpotInput): string[] {
  return isMoneyPage(input.snapshot) ? [FIELD.total] : [];
}

const area = (c: SnapshotCanvas) => c.box.w * c.box.h;

function canvasSpots(input: BlindSpotInput, out: BlindSpots): void {
  const opaque = input.snapshot.canvases.filter((c) => !c.hasTextEquivalent && area(c) >= MIN_CONTENT_CANVAS).sort((a, b) => area(b) - area(a));
  const unclaimed = (f: string) => !input.claims.some((c) => c.field === f);
  const missing = expectedFields(input).filter(unclaimed);
  const holders = new Set<SnapshotCanvas>();
  for (const field of [...new Set([...missing, ...(opaque.length > 0 ? canvasOnlyFields(input).filter(unclaimed) : [])])]) {
    // The largest opaque canvas is where a missing value most plausibly is drawn.
    const holder = opaque[0];
    if (!holder) {
      out.conflicts.push(`${field}_not_observed`);
      continue;
    }
    holders.add(holder);
    out.conflicts.push(`canvas_${field}_not_observed`);
    if (holder.pixelHash && !holder.unreadable) out.canvasHashes.push(holder.pixelHash);
    else out.conflicts.push('canvas_pixels_unreadable');
  }
  if (opaque.some((c) => !holders.has(c))) out.conflicts.push('canvas_content_not_observed');
}

function elementSpots(elements: readonly SnapshotElement[], out: BlindSpots): void {
  const seen = new Set(elements.map((e) => e.visibility));
  for (const v of ['hidden', 'offscreen', 'covered', 'zero_size'] as const) if (seen.has(v)) out.conflicts.push(`${v}_interactive_elements`);
}

export function blindSpots(input: BlindSpotInput): BlindSpots {
  const out: BlindSpots = { conflicts: [], canvasHashes: [] };
  canvasSpots(input, out);
  elementSpots(input.elements, out);
  const visibleContent = input.snapshot.texts.length > 0 || input.elements.some((e) => e.visibility === 'visible');
  if (input.screenshot?.blank && visibleContent) out.conflicts.push('screenshot_blank');
  for (const spot of input.snapshot.blindSpots.slice(0, 64)) {
    const code = toSnakeCase(spot);
    if (code) out.conflicts.push(code);
  }
  return { conflicts: [...new Set(out.conflicts)], canvasHashes: [...new Set(out.canvasHashes)] };
}
