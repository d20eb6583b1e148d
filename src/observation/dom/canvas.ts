import type { SnapshotCanvas } from '../../protocol/snapshot.ts';
import { cleanText } from '../clean-text.ts';
import { LIMITS } from './limits.ts';
import { dom } from './native.ts';
import { pixelHash } from './pixel-hash.ts';

/**
 * A canvas as an observer sees it: does it have a text equivalent, and a hash of its pixels
 * (downscaled) for change detection. We never call `getContext` on the page's canvas — that
 * would bind it to a context type and break a page that later asks for WebGL — we only draw it
 * onto our own small canvas, which becomes tainted (and unreadable) exactly when the page's is.
 */

let scratch: { ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D } | null | undefined;

function scratchContext(doc: Document): OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null {
  if (scratch === undefined) {
    const size = LIMITS.canvasHashSize;
    let ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null = null;
    if (typeof OffscreenCanvas === 'function') ctx = new OffscreenCanvas(size, size).getContext('2d', { willReadFrequently: true });
    if (!ctx) {
      const c = doc.createElement('canvas');
      c.width = size;
      c.height = size;
      ctx = c.getContext('2d', { willReadFrequently: true });
    }
    scratch = ctx ? { ctx } : null;
  }
  return scratch?.ctx ?? null;
}

function textEquivalent(canvas: Element): string | undefined {
  const label = dom.attr(canvas, 'aria-label') ?? dom.attr(canvas, 'title');
  if (label && label.trim()) return cleanText(label, LIMITS.maxNameLength);
  const labelledBy = dom.attr(canvas, 'aria-labelledby');
  if (labelledBy) {
    const root = dom.rootNode(canvas) as Document | ShadowRoot;
    const text = labelledBy
      .split(/\s+/)
      .map((id) => (id ? root.getElementById?.(id) : null))
      .map((el) => (el ? dom.text(el) : ''))
      .join(' ');
    if (text.trim()) return cleanText(text, LIMITS.maxNameLength);
  }
  // Fallback content between <canvas> and </canvas> is its accessible content.
  const fallback = dom.text(canvas);
  return fallback.trim() ? cleanText(fallback, LIMITS.maxNameLength) : undefined;
}

/** Reads one canvas. `box` is already in page coordinates. */
export function readCanvas(canvas: HTMLCanvasElement, ref: string, box: SnapshotCanvas['box'], hashPixels: boolean): SnapshotCanvas {
  const label = textEquivalent(canvas);
  const out: SnapshotCanvas = { ref, box, hasTextEquivalent: label !== undefined };
  if (label) out.label = label;
  if (!hashPixels) return out;
  const ctx = scratchContext(dom.ownerDocument(canvas) ?? document);
  if (!ctx || canvas.width === 0 || canvas.height === 0) {
    out.unreadable = true;
    return out;
  }
  const size = LIMITS.canvasHashSize;
  try {
    ctx.clearRect(0, 0, size, size);
    ctx.drawImage(canvas, 0, 0, size, size);
    out.pixelHash = `px-${pixelHash(ctx.getImageData(0, 0, size, size).data)}`;
  } catch {
    // SecurityError: the page drew cross-origin pixels on it (tainted). Our scratch canvas is now
    // tainted for good, so the next read starts a fresh one.
    out.unreadable = true;
    scratch = undefined;
  }
  return out;
}
