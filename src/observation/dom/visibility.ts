import type { Visibility } from '../../protocol/element.ts';

/**
 * Whether a person could see and hit an element, decided from facts the capture read (pure).
 *
 * - `hidden`: not rendered (display:none, visibility:hidden, `hidden`, content-visibility, a
 *   closed `<details>`), or removed from the accessibility tree (aria-hidden="true", inert), or in
 *   a frame that is itself not shown.
 * - `zero_size`: rendered but with less than one pixel of area (width:0, a collapsed wrapper,
 *   the 1×1 "visually hidden" pattern).
 * - `offscreen`: entirely outside the page's scrollable area — left of or above the origin, or
 *   past the scroll width/height — so no amount of scrolling brings it into view
 *   (`left:-10000px`). An element merely below the fold is NOT offscreen: it is `visible`,
 *   reachable by scrolling.
 * - `covered`: its centre is inside the viewport but the topmost element there is neither the
 *   element nor one of its descendants (an overlay, a modal backdrop, a cookie banner). Elements
 *   whose centre is outside the viewport cannot be hit-tested and are not called covered.
 * - `visible`: none of the above. Only `visible` elements may be offered as clickable.
 */
export interface VisibilityFacts {
  hidden: boolean;
  /** Box in page coordinates of its own document (CSS px). */
  box: { x: number; y: number; w: number; h: number };
  /** Scrollable size of its document. */
  page: { w: number; h: number };
  /** Result of the hit test at the centre: true = the element (or a descendant) is on top,
   *  false = something else is, undefined = not tested (centre outside the viewport). */
  hitsItself?: boolean;
}

export function classifyVisibility(f: VisibilityFacts): Visibility {
  if (f.hidden) return 'hidden';
  const { x, y, w, h } = f.box;
  if (!(w * h >= 1)) return 'zero_size';
  if (x + w <= 0 || y + h <= 0 || x >= f.page.w || y >= f.page.h) return 'offscreen';
  if (f.hitsItself === false) return 'covered';
  return 'visible';
}

/** The centre of a viewport-relative rect when it lies inside the viewport, else undefined. */
export function hitPoint(rect: { left: number; top: number; width: number; height: number }, viewport: { w: number; h: number }): { x: number; y: number } | undefined {
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  if (!(x >= 0 && y >= 0 && x < viewport.w && y < viewport.h)) return undefined;
  return { x, y };
}
