import { dom } from './native.ts';

/**
 * Whether the points of an element lie outside the box of an ancestor that clips its overflow
 * (read only for the few controls whose every sample point failed its hit test):
 * - `clipped`: outside an `overflow: hidden` / `clip` box — nobody sees or reaches it there (a
 *   person cannot scroll such a box);
 * - `scroll`: outside an `overflow: auto` / `scroll` box — scrolling that box brings it into view,
 *   as scrolling the page brings a control below the fold;
 * - undefined: no ancestor clips it there (whatever is on top of it covers it).
 */
export type ClipKind = 'clipped' | 'scroll';

/** An ancestor that clips on one axis or both: how, and its client box (viewport coordinates). */
export interface ClipBox {
  x?: ClipKind;
  y?: ClipKind;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const HIDES = new Set(['hidden', 'clip']);
const SCROLLS = new Set(['auto', 'scroll']);
const MAX_DEPTH = 24;

/** How an `overflow-x` / `overflow-y` value treats what lies outside the box on that axis. */
function overflowKind(overflow: string): ClipKind | undefined {
  if (HIDES.has(overflow)) return 'clipped';
  if (SCROLLS.has(overflow)) return 'scroll';
  return undefined;
}

/** One ancestor's clipping (null: it clips nothing), from its computed style and client box. */
function clipBoxOf(a: Element, view: Window): ClipBox | null {
  const style = view.getComputedStyle(a);
  const x = overflowKind(style.overflowX);
  const y = overflowKind(style.overflowY);
  if (!x && !y) return null;
  const r = dom.rect(a);
  const left = r.left + a.clientLeft;
  const top = r.top + a.clientTop;
  return { x, y, left, top, right: left + a.clientWidth, bottom: top + a.clientHeight };
}

/** The ancestors of `el` that clip (the page's own scrolling aside), each read once per `memo`. */
export function clipBoxes(el: Element, memo: Map<Element, ClipBox | null>): ClipBox[] {
  const view = dom.ownerDocument(el)?.defaultView;
  if (!view) return [];
  const out: ClipBox[] = [];
  let a = dom.parentElement(el);
  for (let depth = 0; a && depth < MAX_DEPTH; depth++, a = dom.parentElement(a)) {
    const name = dom.localName(a);
    // The page's own scrolling is the viewport's: the points are inside it by construction.
    if (name === 'body' || name === 'html') break;
    let box = memo.get(a);
    if (box === undefined) {
      box = clipBoxOf(a, view);
      memo.set(a, box);
    }
    if (box) out.push(box);
  }
  return out;
}

/** How the clipping ancestors treat the point (`x`, `y`: viewport coordinates of the element's own document). */
export function clipKindAt(boxes: readonly ClipBox[], x: number, y: number): ClipKind | undefined {
  let kind: ClipKind | undefined;
  for (const b of boxes) {
    const outX = b.x !== undefined && (x < b.left || x >= b.right);
    const outY = b.y !== undefined && (y < b.top || y >= b.bottom);
    if ((outX && b.x === 'clipped') || (outY && b.y === 'clipped')) return 'clipped';
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

/**
 * The element on top is one plain rectangle over all of `box` (viewport coordinates): no other
 * point of the box can show what lies under it (no rounded corners or clip path to leave a gap).
 */
export function blankets(top: Element, box: { left: number; top: number; width: number; height: number }): boolean {
  const r = dom.rect(top);
  if (r.left > box.left + 1 || r.top > box.top + 1 || r.right < box.left + box.width - 1 || r.bottom < box.top + box.height - 1) return false;
  const style = dom.ownerDocument(top)?.defaultView?.getComputedStyle(top);
  return style !== undefined && (style.clipPath === '' || style.clipPath === 'none') && (style.borderRadius === '' || /^0(px)?$/.test(style.borderRadius));
}
