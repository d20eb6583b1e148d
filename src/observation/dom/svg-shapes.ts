import { LISTENER_MARK_ATTRIBUTE } from '../../protocol/listener-marks.ts';
import { tagKind } from './shape-kinds.ts';
import { cleanText } from '../clean-text.ts';
import { colourName } from './colour-names.ts';
import type { Semantics, ShapeStyle } from './entries.ts';
import { LIMITS } from './limits.ts';
import { dom } from './native.ts';
import { semanticsOf } from './semantics.ts';

/**
 * SVG shapes as a person sees them (issue 26): in a drawing — a rendered `<svg>`, not aria-hidden,
 * not an image with one name of its own, not the icon of a control, at least MIN_DRAWING_SIDE
 * pixels both ways — circles, rects, polygons, paths, lines, texts and images are reported as
 * elements with their kind and colour names (their size, against the other shapes of their
 * drawing, is decided per snapshot: shape-sizes.ts). Nothing reacts to a shape unless the page
 * marked a listener on it (`data-steward-on`, set from the main world) or gave it a pointer cursor:
 * otherwise it is `passive`, shown and never offered as an action.
 */

/** Elements that draw a shape. */
export const SHAPE_TAGS: ReadonlySet<string> = new Set(['circle', 'ellipse', 'rect', 'polygon', 'polyline', 'path', 'line', 'text', 'image']);
/** Smaller than this both ways, an `<svg>` is an icon, not a drawing whose parts a person tells apart. */
const MIN_DRAWING_SIDE = 40;
/** The attribute the main-world script sets on elements the page registered pointer or key listeners on. */
/** An `<svg>` inside one of these is the control's icon. */
const CONTROL_ANCESTOR = 'a[href],button,select,label,summary,[role=button],[role=link],[role=menuitem],[role=tab],[role=option],[role=checkbox],[role=radio],[role=switch],[role=treeitem]';
/** Roles of an `<svg>` whose parts are not its own (an image with one name; decoration). */
const WHOLE_ROLES = new Set(['img', 'image', 'presentation', 'none']);
/** Roles a shape's `role` attribute may not give it (they say it is nothing). */
const EMPTY_ROLES = new Set(['presentation', 'none', 'generic']);
const MAX_NAME = 120;

/** Whether an `<svg>` is a drawing whose shapes are reported (see the file comment); reads a rect once per drawing and walk. */
function isDrawing(svg: Element): boolean {
  const role = dom.attr(svg, 'role');
  if (role !== null && WHOLE_ROLES.has(role.trim().toLowerCase().split(/\s+/)[0] ?? '')) return false;
  if (dom.closest(svg, '[aria-hidden="true"],[inert]') !== null) return false;
  const parent = dom.parentElement(svg);
  if (parent && dom.closest(parent, CONTROL_ANCESTOR) !== null) return false;
  const r = dom.rect(svg);
  return r.width >= MIN_DRAWING_SIDE && r.height >= MIN_DRAWING_SIDE;
}

/** Per walk: each drawing met, and how many shapes the walk made of it (the cap bounds a chart of thousands of paths). */
const drawingsOfWalk = new WeakMap<object, Map<Element, { ok: boolean; shapes: number }>>();

/**
 * The drawing `el` is a shape of, when it is one and the walk may still report shapes of it; `walk`
 * is the walk's own context (its memo lives as long as it does). `truncated` is told when the cap
 * turns a shape away.
 */
export function drawingOf(walk: object, el: Element, maxPerDrawing: number, truncated: () => void): Element | undefined {
  const svg = ownerSvg(el);
  if (!svg) return undefined;
  let memo = drawingsOfWalk.get(walk);
  if (!memo) {
    memo = new Map();
    drawingsOfWalk.set(walk, memo);
  }
  let d = memo.get(svg);
  if (!d) {
    d = { ok: isDrawing(svg), shapes: 0 };
    memo.set(svg, d);
  }
  if (!d.ok) return undefined;
  if (d.shapes >= maxPerDrawing) {
    truncated();
    return undefined;
  }
  d.shapes++;
  return svg;
}

const ownerSvgOf = Object.getOwnPropertyDescriptor(SVGElement.prototype, 'ownerSVGElement')?.get as ((this: Element) => SVGSVGElement | null) | undefined;

/** The nearest `<svg>` around an SVG element; null for anything else (an HTML `<text>` tag is no shape). */
function ownerSvg(el: Element): Element | null {
  if (dom.namespace(el) !== 'http://www.w3.org/2000/svg' || !ownerSvgOf) return null;
  return ownerSvgOf.call(el);
}

/** Its own aria-label or `<title>`, else the `<title>` of a group that holds it alone (`<g><title>Desk 14</title><circle/></g>`); a text's words. */
function shapeName(el: Element, localName: string): string {
  const label = dom.attr(el, 'aria-label');
  if (label !== null && label.trim()) return cleanText(label, MAX_NAME);
  const own = titleOf(el);
  if (own) return own;
  if (localName === 'text') return cleanText(dom.text(el), MAX_NAME);
  const group = dom.parentElement(el);
  if (group && dom.localName(group) === 'g' && soleShape(group)) return titleOf(group) || cleanText(dom.attr(group, 'aria-label') ?? '', MAX_NAME);
  return '';
}

function titleOf(el: Element): string {
  for (let c = dom.firstChild(el); c; c = dom.nextSibling(c)) {
    if (dom.nodeType(c) === 1 && dom.localName(c as Element) === 'title') return cleanText(dom.text(c), MAX_NAME);
  }
  return '';
}

function soleShape(group: Element): boolean {
  let shapes = 0;
  for (let c = dom.firstChild(group); c; c = dom.nextSibling(c)) if (dom.nodeType(c) === 1 && SHAPE_TAGS.has(dom.localName(c as Element)) && ++shapes > 1) return false;
  return shapes === 1;
}

/** Painted at all: a colour that shows, not `none`, with some opacity (and for a stroke, some width). */
function paint(colour: string, opacity: string, width?: string): string | undefined {
  if (Number.parseFloat(opacity) === 0 || (width !== undefined && Number.parseFloat(width) === 0)) return undefined;
  return colourName(colour);
}

/** Kind, paint and whether anything reacts to it, read from the shape and its computed style. */
function shapeStyle(el: Element, localName: string, drawing: Element): { style: ShapeStyle; live: boolean } {
  const style: ShapeStyle = { kind: tagKind(localName, localName === 'polygon' ? dom.attr(el, 'points') : null), drawing };
  let pointer = false;
  const computed = dom.ownerDocument(el)?.defaultView?.getComputedStyle(el);
  if (computed) {
    if (localName !== 'image') {
      const fill = localName === 'line' || localName === 'polyline' ? undefined : paint(computed.fill, computed.fillOpacity);
      if (fill) style.fill = fill;
      const stroke = paint(computed.stroke, computed.strokeOpacity, computed.strokeWidth);
      if (stroke) style.stroke = stroke;
    }
    pointer = computed.cursor === 'pointer';
  }
  // A listener on the shape, or on a group or the drawing around it (a click on the shape reaches it), not on the page around the drawing.
  const marked = dom.closest(el, `[${LISTENER_MARK_ATTRIBUTE}]`);
  return { style, live: pointer || (marked !== null && (marked === drawing || dom.contains(drawing, marked))) };
}

/** A shape that is no control by its markup: role `graphics-symbol` (or its own `role`), name from aria-label / `<title>` / its text. */
function plainShapeSemantics(el: Element, localName: string): Semantics {
  const roleAttr = dom.attr(el, 'role');
  const explicit = roleAttr?.trim().toLowerCase().split(/\s+/)[0];
  // Every Semantics field present, in semanticsOf's order: one object shape for all.
  return {
    role: explicit && !EMPTY_ROLES.has(explicit) ? explicit.slice(0, 64) : 'graphics-symbol',
    name: shapeName(el, localName).slice(0, LIMITS.maxNameLength),
    description: undefined,
    tag: localName,
    inputType: undefined,
    href: undefined,
    options: undefined,
    states: [],
    usesIdRefs: false,
    live: undefined,
    failed: undefined,
    secret: undefined,
    selected: undefined,
    range: undefined,
    shape: undefined,
    passive: undefined,
    controlsIds: undefined,
  };
}

const sameStyle = (a: ShapeStyle, b: ShapeStyle) => a.kind === b.kind && a.fill === b.fill && a.stroke === b.stroke && a.drawing === b.drawing && a.control === b.control;

/**
 * A shape's semantics for this walk. Its paint and cursor are read again whenever the walk passes
 * it (a class on a group above it recolours it without a mutation of its own), the `cached`
 * object kept while it reads the same. `control`: it is a control by its markup (a role, a
 * tabindex): its semantics as semanticsOf computes them, with the shape's kind and paint.
 */
export function drawnSemantics(el: Element, localName: string, drawing: Element, cached: Semantics | undefined, control: (() => Semantics) | undefined): Semantics {
  const { style, live } = shapeStyle(el, localName, drawing);
  if (control) style.control = true;
  const passive = control || live ? undefined : true;
  const base = cached?.shape && cached.shape.control === style.control ? cached : control ? control() : plainShapeSemantics(el, localName);
  if (base.shape && sameStyle(base.shape, style) && base.passive === passive) return base;
  return { ...base, shape: style, passive };
}

/** A shape whose semantics a mutation made stale, computed again as the walk made them. */
export function renewDrawn(el: Element, old: Semantics): Semantics {
  const localName = dom.localName(el);
  const shape = old.shape!;
  return drawnSemantics(el, localName, shape.drawing, undefined, shape.control ? () => semanticsOf(el, localName) : undefined);
}
