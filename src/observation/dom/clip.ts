import { dom } from './native.ts';

/**
 * Whether a point of an element lies outside the box of an ancestor that clips its overflow
 * (read only for the few controls whose every sample point failed its hit test):
 * - `clipped`: outside an `overflow: hidden` / `clip` box — nobody sees or reaches it there (a
 *   person cannot scroll such a box);
 * - `scroll`: outside an `overflow: auto` / `scroll` box — scrolling that box brings it into view,
 *   as scrolling the page brings a control below the fold;
 * - undefined: no ancestor clips it there (whatever is on top of it covers it).
 */
export type ClipKind = 'clipped' | 'scroll';

const HIDES = new Set(['hidden', 'clip']);
const SCROLLS = new Set(['auto', 'scroll']);
const MAX_DEPTH = 24;

/** How an `overflow-x` / `overflow-y` value treats what lies outside the box on that axis (pure). */
function overflowKind(overflow: string): ClipKind | undefined {
  if (HIDES.has(overflow)) return 'clipped';
  if (SCROLLS.has(overflow)) return 'scroll';
  return undefined;
}

/** `x`, `y`: viewport coordinates of the element's own document. */
export function clipAt(el: Element, x: number, y: number): ClipKind | undefined {
  const view = dom.ownerDocument(el)?.defaultView;
  if (!view) return undefined;
  let kind: ClipKind | undefined;
  let a = dom.parentElement(el);
  for (let depth = 0; a && depth < MAX_DEPTH; depth++, a = dom.parentElement(a)) {
    const name = dom.localName(a);
    // The page's own scrolling is the viewport's: the points are inside it by construction.
    if (name === 'body' || name === 'html') break;
    const style = view.getComputedStyle(a);
    const kx = overflowKind(style.overflowX);
    const ky = overflowKind(style.overflowY);
    if (!kx && !ky) continue;
    const r = dom.rect(a);
    const left = r.left + a.clientLeft;
    const top = r.top + a.clientTop;
    const outX = kx !== undefined && (x < left || x >= left + a.clientWidth);
    const outY = ky !== undefined && (y < top || y >= top + a.clientHeight);
    if ((outX && kx === 'clipped') || (outY && ky === 'clipped')) return 'clipped';
    if (outX || outY) kind = 'scroll';
  }
  return kind;
}

/**
 * The element clips itself away: the visually-hidden pattern (`clip: rect(0 0 0 0)`,
 * `clip-path: inset(50%)`, a box under two pixels wide or high). Asked only when no point of it
 * could be hit: then nothing covers it that could be dismissed.
 */
export function clipsItself(el: Element, box: { width: number; height: number }): boolean {
  if (box.width < 2 || box.height < 2) return true;
  const style = dom.ownerDocument(el)?.defaultView?.getComputedStyle(el);
  return style !== undefined && ((style.clipPath !== '' && style.clipPath !== 'none') || (style.clip !== '' && style.clip !== 'auto'));
}
