import { hitsItself } from '../../observation/dom/geometry.ts';
import { dom } from '../../observation/dom/native.ts';
import { hitPoints } from '../../observation/dom/hit-points.ts';
import { describeCover } from '../../observation/dom/cover.ts';
import type { ActRefusalPhrase } from '../../protocol/act-refusal.ts';
import { refusalSaid } from './refusal-said.ts';

/**
 * Before any DOM action: is the element one a person could see and hit right now? Checked on
 * the live element at the moment of acting, not on the observation the agent planned from
 * (pages change between the two). Reads through `dom` (prototype accessors), so a page that
 * patches or clobbers DOM methods cannot make a hidden or covered control look actionable.
 */

/** `message_said`: the same refusal as data, for the side panel to say in the person's language. */
export type Refusal = { code: RefusalCode; message: string; message_said: ActRefusalPhrase };
type RefusalCode = 'NOT_VISIBLE' | 'DISABLED' | 'COVERED' | 'OUTSIDE_VIEWPORT';
/** What a guard asked right before an activation (the approved form's check: form-check.ts) says when it objects. */
export type GuardRefusal = { code: string; message: string; message_said?: ActRefusalPhrase };

const A11Y_HIDDEN = '[aria-hidden="true"],[inert]';
const DISABLED = ':disabled,[aria-disabled="true"]';

export function describe(el: Element): string {
  const name = (dom.attr(el, 'aria-label') ?? dom.text(el)).replace(/\s+/g, ' ').trim().slice(0, 80);
  const id = dom.attr(el, 'id');
  return `<${dom.localName(el)}${id ? `#${id}` : ''}>${name ? ` "${name}"` : ''}`;
}

/** Rendered, not aria-hidden or inert, and at least one pixel large. */
export function visibilityProblem(el: Element): Refusal | undefined {
  const hidden = !dom.checkVisibility(el, { visibilityProperty: true, opacityProperty: true, contentVisibilityAuto: false }) || dom.closest(el, A11Y_HIDDEN) !== null;
  if (hidden) return { code: 'NOT_VISIBLE', message: `${describe(el)} is hidden (not rendered, transparent, aria-hidden or inert)`, message_said: refusalSaid('hidden', el) };
  const r = dom.rect(el);
  if (!(r.width * r.height >= 1)) return { code: 'NOT_VISIBLE', message: `${describe(el)} has no size on screen`, message_said: refusalSaid('hidden', el) };
  return undefined;
}

export function disabledProblem(el: Element): Refusal | undefined {
  return dom.matches(el, DISABLED) || dom.closest(el, '[aria-disabled="true"],fieldset:disabled') !== null
    ? { code: 'DISABLED', message: `${describe(el)} is disabled`, message_said: refusalSaid('disabled', el) }
    : undefined;
}

/** A point on the element a person's press would reach, and the element that takes it there (the element, a part of it, or its label). */
export interface Reach {
  x: number;
  y: number;
  /** Where the events go: the topmost element at the point. */
  target: Element;
}

/**
 * Scrolls the element into the middle of the viewport (as a person would, and clear of sticky
 * headers and footers), then tries the sample points of its box (src/observation/dom/hit-points.ts,
 * the same the observation uses) until one hits the element itself, a part of it, or its label.
 * None does: refused as COVERED, naming what lies on top (its role and name).
 */
export function bringIntoViewAndHitTest(el: Element): { ok: true; reach: Reach } | { ok: false; refusal: Refusal } {
  const doc = dom.ownerDocument(el);
  const view = doc ? dom.doc.view(doc) : null;
  if (!doc || !view) return { ok: false, refusal: { code: 'NOT_VISIBLE', message: `${describe(el)} is not in a displayed document`, message_said: refusalSaid('hidden', el) } };
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = dom.rect(el);
  const points = hitPoints(r, { vw: view.innerWidth, vh: view.innerHeight });
  if (points.length === 0) {
    return { ok: false, refusal: { code: 'OUTSIDE_VIEWPORT', message: `${describe(el)} cannot be scrolled into view (it sits outside the page)`, message_said: refusalSaid('offscreen', el) } };
  }
  const root = dom.rootNode(el) as Document | ShadowRoot;
  let cover: Element | null = null;
  for (const p of points) {
    const top = dom.elementFromPoint(root, p.x, p.y);
    if (hitsItself(el, root, p.x, p.y) || labelOnTop(el, top)) return { ok: true, reach: { x: p.x, y: p.y, target: top && (top === el || dom.contains(el, top)) ? top : el } };
    cover ??= top;
  }
  const named = cover ? coverOf(cover, el) : undefined;
  return {
    ok: false,
    refusal: {
      code: 'COVERED',
      message: `${describe(el)} is covered by ${named ? named.words : 'nothing hit-testable'} at every point Steward tried (${points.length}); dismiss or move what covers it first`,
      message_said: refusalSaid('covered', el, named?.cover ? { cover: named.cover } : {}),
    },
  };
}

/** What covers a control, named as the observation names it (src/observation/dom/cover.ts): the dialog, banner or overlay the element on top belongs to. */
function coverOf(top: Element, covered: Element): { words: string; cover?: { role: string; name: string } } {
  try {
    const cover = describeCover(top, covered);
    return { words: `${cover.role}${cover.name ? ` “${cover.name}”` : ''} (${describe(cover.el)})`, cover: { role: cover.role, name: cover.name } };
  } catch {
    return { words: describe(top) };
  }
}

/** A visually replaced control (a styled checkbox) is hit through its label. */
function labelOnTop(el: Element, top: Element | null): boolean {
  const label = top ? dom.closest(top, 'label') : null;
  return label !== null && dom.localName(label) === 'label' && (label as HTMLLabelElement).control === el;
}
