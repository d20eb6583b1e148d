import { hitsItself } from '../../observation/dom/geometry.ts';
import { dom } from '../../observation/dom/native.ts';

/**
 * Before any DOM action: is the element one a person could see and hit right now? Checked on
 * the live element at the moment of acting, not on the observation the agent planned from
 * (pages change between the two). Reads through `dom` (prototype accessors), so a page that
 * patches or clobbers DOM methods cannot make a hidden or covered control look actionable.
 */

export type Refusal = { code: RefusalCode; message: string };
type RefusalCode = 'NOT_VISIBLE' | 'DISABLED' | 'COVERED' | 'OUTSIDE_VIEWPORT';

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
  if (hidden) return { code: 'NOT_VISIBLE', message: `${describe(el)} is hidden (not rendered, transparent, aria-hidden or inert)` };
  const r = dom.rect(el);
  if (!(r.width * r.height >= 1)) return { code: 'NOT_VISIBLE', message: `${describe(el)} has no size on screen` };
  return undefined;
}

export function disabledProblem(el: Element): Refusal | undefined {
  return dom.matches(el, DISABLED) || dom.closest(el, '[aria-disabled="true"],fieldset:disabled') !== null ? { code: 'DISABLED', message: `${describe(el)} is disabled` } : undefined;
}

/**
 * Scrolls the element into view (as a person would) and hit-tests its centre: the topmost element
 * there must be the element itself, a descendant, or a label for it. Returns the centre point.
 */
export function bringIntoViewAndHitTest(el: Element): { ok: true; x: number; y: number } | { ok: false; refusal: Refusal } {
  const doc = dom.ownerDocument(el);
  const view = doc ? dom.doc.view(doc) : null;
  if (!doc || !view) return { ok: false, refusal: { code: 'NOT_VISIBLE', message: `${describe(el)} is not in a displayed document` } };
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = dom.rect(el);
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  if (!(x >= 0 && y >= 0 && x < view.innerWidth && y < view.innerHeight)) {
    return { ok: false, refusal: { code: 'OUTSIDE_VIEWPORT', message: `${describe(el)} cannot be scrolled into view (it sits outside the page)` } };
  }
  const root = dom.rootNode(el) as Document | ShadowRoot;
  if (hitsItself(el, root, x, y) || labelOnTop(el, root, x, y)) return { ok: true, x, y };
  const top = dom.elementFromPoint(root, x, y);
  return { ok: false, refusal: { code: 'COVERED', message: `${describe(el)} is covered by ${top ? describe(top) : 'nothing hit-testable'} at its centre` } };
}

/** A visually replaced control (a styled checkbox) is hit through its label. */
function labelOnTop(el: Element, root: Document | ShadowRoot, x: number, y: number): boolean {
  const top = dom.elementFromPoint(root, x, y);
  const label = top ? dom.closest(top, 'label') : null;
  return label !== null && dom.localName(label) === 'label' && (label as HTMLLabelElement).control === el;
}
