import type { Geometry, RootState } from './entries.ts';
import { hitRelation, type ComposedTree, type HitRelation } from './hit-relation.ts';
import { dom } from './native.ts';

/**
 * Reading where things are. Only reads (no writes), so a capture costs one layout at most; the
 * cheap style check (`checkVisibility`) comes before the rect.
 */

export interface DocView {
  scrollX: number;
  scrollY: number;
  /** Viewport size (CSS px). */
  vw: number;
  vh: number;
  /** Scrollable page size (CSS px). */
  pageW: number;
  pageH: number;
}

export function docView(doc: Document): DocView {
  const win = dom.doc.view(doc);
  const scroller = dom.doc.scrollingElement(doc) ?? dom.doc.documentElement(doc);
  const vw = win?.innerWidth ?? 0;
  const vh = win?.innerHeight ?? 0;
  return {
    scrollX: win?.scrollX ?? 0,
    scrollY: win?.scrollY ?? 0,
    vw,
    vh,
    pageW: Math.max(scroller?.scrollWidth ?? 0, vw),
    pageH: Math.max(scroller?.scrollHeight ?? 0, vh),
  };
}

const VISIBILITY_OPTIONS = { visibilityProperty: true, contentVisibilityAuto: false } as const;
// (Without options checkVisibility still sees display:none and content-visibility:hidden; only
// `visibility` needs the option, and converting an options dictionary costs a third of the call.)
const A11Y_HIDDEN = '[aria-hidden="true"],[inert]';
/** What `rootFlags` looks for. */
export const FLAG_SELECTOR = `${A11Y_HIDDEN},[aria-disabled="true"]`;

// Geometry without a place: nothing reads where a hidden element or a text is (texts only say
// whether they are rendered), so these are shared instead of made for each of thousands of texts.
export const NOT_RENDERED: Geometry = Object.freeze({ hidden: true, x: 0, y: 0, w: 0, h: 0, scrollX: 0, scrollY: 0 });
const RENDERED_NO_RECT: Geometry = Object.freeze({ hidden: false, x: 0, y: 0, w: 0, h: 0, scrollX: 0, scrollY: 0 });

/**
 * Rendered or not, and where. `a11yHidden` adds aria-hidden / inert (for interactive elements:
 * what the accessibility tree does not expose is not offered to an agent). Texts only need to
 * know whether they are rendered (`withRect` false skips the rect).
 */
export function readGeometry(el: Element, view: DocView, a11yHidden: boolean, withRect = true, stylesMayHide = true): Geometry {
  // Without visibility / content-visibility rules anywhere, a non-empty box is a rendered, visible
  // one: the style check is only needed when the box is empty (display:none, closed <details>).
  const r = withRect && !stylesMayHide ? dom.rect(el) : undefined;
  let hidden = r !== undefined && r.width * r.height > 0 ? false : !dom.checkVisibility(el, stylesMayHide ? VISIBILITY_OPTIONS : undefined);
  if (!hidden && a11yHidden) hidden = dom.closest(el, A11Y_HIDDEN) !== null;
  if (hidden) return NOT_RENDERED;
  if (!withRect) return RENDERED_NO_RECT;
  const rect = r ?? dom.rect(el);
  return { hidden, x: rect.left + view.scrollX, y: rect.top + view.scrollY, w: rect.width, h: rect.height, scrollX: view.scrollX, scrollY: view.scrollY };
}

const ELEMENT_NODE = 1;
const FRAGMENT_NODE = 11;

const COMPOSED: ComposedTree<Node> = {
  assignedSlot: (n) => (dom.nodeType(n) === ELEMENT_NODE ? dom.assignedSlot(n as Element) : null),
  parent: (n) => dom.parentNode(n),
  hostOf: (n) => (dom.nodeType(n) === FRAGMENT_NODE ? dom.host(n as ShadowRoot) : null),
};

/** How the topmost element relates to `el` (see hit-relation.ts); plain DOM checks first, the composed walk only inside shadow trees. */
function relationOf(hit: Element, el: Element, root: Document | ShadowRoot): HitRelation {
  if (hit === el || dom.contains(el, hit)) return 'on';
  // In a document's own tree, a hit that is neither inside nor around the element is elsewhere: no host or slot can join them.
  const relation = dom.isDocument(root) ? (dom.contains(hit, el) ? 'around' : 'elsewhere') : hitRelation<Node>(hit, el, COMPOSED);
  // A control drawn by its label (a hidden checkbox under a custom-drawn switch or box): a click there reaches the control.
  if (relation === 'elsewhere' && dom.labels(el).some((label) => label === hit || dom.contains(label, hit))) return 'on';
  return relation;
}

/**
 * Whether the topmost element at (x, y) of this tree is `el`, inside it, or the shadow host that
 * draws it (see hit-relation.ts). When the point falls in a gap of `el` itself — the centre of a
 * link wrapped over two lines lands between its fragments, and the hit is then an ancestor — the
 * centres of its line boxes are tried; only a hit on some other element means covered.
 */
export function hitsItself(el: Element, root: Document | ShadowRoot, x: number, y: number): boolean {
  const hit = dom.elementFromPoint(root, x, y);
  if (hit === null) return false;
  const first = relationOf(hit, el, root);
  if (first !== 'around') return first === 'on';
  const rects = el.getClientRects();
  for (let i = 0; i < rects.length && i < 3; i++) {
    const r = rects[i]!;
    if (r.width * r.height < 1) continue;
    const again = dom.elementFromPoint(root, r.left + r.width / 2, r.top + r.height / 2);
    if (again === null) continue;
    const relation = relationOf(again, el, root);
    if (relation !== 'around') return relation === 'on';
  }
  // Only ancestors under every fragment: nothing else is on top of it, unless one of them clips it
  // away entirely (overflow: hidden), and what shows there is that ancestor, not the element.
  return !clippedAway(el);
}

const CLIPS = new Set(['hidden', 'clip']);
const MAX_CLIP_DEPTH = 8;

/** An ancestor with `overflow: hidden` (or clip) whose box the element lies wholly outside: nobody can see or hit it. */
function clippedAway(el: Element): boolean {
  const view = dom.ownerDocument(el)?.defaultView;
  if (!view) return false;
  const r = dom.rect(el);
  let a = dom.parentElement(el);
  for (let depth = 0; a && depth < MAX_CLIP_DEPTH; depth++, a = dom.parentElement(a)) {
    const style = view.getComputedStyle(a);
    if (!CLIPS.has(style.overflowX) && !CLIPS.has(style.overflowY)) continue;
    const b = dom.rect(a);
    if (r.right <= b.left || r.left >= b.right || r.bottom <= b.top || r.top >= b.bottom) return true;
  }
  return false;
}

/**
 * Facts about a tree that let most elements skip ancestor checks; kept until a mutation adds
 * elements or changes aria-hidden / inert / aria-disabled (the model then clears them).
 */
export function rootFlags(root: RootState): NonNullable<RootState['flags']> {
  if (!root.flags) {
    // One pass over the tree for both (usually: no match at all).
    const found = dom.queryAll(root.key, FLAG_SELECTOR);
    let a11yHidden = false;
    let ariaDisabled = false;
    for (let i = 0; i < found.length && !(a11yHidden && ariaDisabled); i++) {
      const el = found[i]!;
      if (dom.attr(el, 'aria-disabled') === 'true') ariaDisabled = true;
      if (dom.attr(el, 'aria-hidden') === 'true' || dom.has(el, 'inert')) a11yHidden = true;
    }
    root.flags = { a11yHidden, ariaDisabled };
  }
  return root.flags;
}

/** Whether the host of a tree is aria-hidden / inert, or not rendered at all (an iframe with display:none). */
export function hostIsHidden(host: Element, isFrame: boolean): boolean {
  if (dom.closest(host, A11Y_HIDDEN) !== null) return true;
  return isFrame && !dom.checkVisibility(host, VISIBILITY_OPTIONS);
}
