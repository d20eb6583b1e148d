import { computeAccessibleName, getRole } from 'dom-accessibility-api';
import { cleanText } from '../clean-text.ts';
import { dom } from './native.ts';
import { coverWord, isDismissLabel } from './cover-words.ts';
import { DIALOG_SELECTOR } from './classify.ts';

/**
 * What lies on top of a control a person cannot reach at any point of its box, named the way a
 * person would name it: not the `<span>` the pointer happens to land on, but the thing it belongs
 * to — a dialog, a banner, a sticky header, a fixed or positioned overlay — with its role, a short
 * name, and the control that dismisses it. The observation (snapshot-geometry.ts) and the act's
 * refusal (src/content/act/checks.ts) name covers alike. Only run for the few controls whose
 * every sample point failed.
 */

/** Roles that make the element itself the cover (the climb stops there). */
const CONTAINER_ROLES: ReadonlySet<string> = new Set(['dialog', 'alertdialog', 'banner', 'navigation', 'contentinfo', 'complementary', 'alert', 'tooltip', 'menu', 'listbox']);
/** Roles that say nothing about what an element is. */
const PLAIN_ROLES: ReadonlySet<string> = new Set(['generic', 'none', 'presentation', 'paragraph', 'group']);
/** Ancestors climbed from the element on top before settling for it as it is. */
const MAX_CLIMB = 12;
const MAX_NAME = 80;
/** Controls looked at inside a cover for one that dismisses it. */
const MAX_DISMISS_CANDIDATES = 40;
const CONTROL_SELECTOR = 'button,a[href],[role=button],[role=link],input[type=button],input[type=submit],[aria-label],[title]';
const HEADING_SELECTOR = 'h1,h2,h3,h4,h5,h6,[role=heading]';

function styleOf(el: Element): CSSStyleDeclaration | undefined {
  try {
    return dom.ownerDocument(el)?.defaultView?.getComputedStyle(el) ?? undefined;
  } catch {
    return undefined;
  }
}

function roleOf(el: Element): string | undefined {
  const explicit = dom.attr(el, 'role');
  if (explicit !== null) {
    const first = explicit.trim().toLowerCase().split(/\s+/)[0];
    if (first) return first;
  }
  if (dom.localName(el) === 'dialog') return 'dialog';
  try {
    return getRole(el) ?? undefined;
  } catch {
    return undefined;
  }
}

/** What makes an element a cover of its own: a telling role, or a place of its own above the page (fixed, sticky, absolute, lifted by a z-index). */
function standsAlone(el: Element): { role?: string; position?: string } | undefined {
  const role = roleOf(el);
  if (role && CONTAINER_ROLES.has(role)) return { role };
  const style = styleOf(el);
  const position = style?.position ?? 'static';
  // Absolutely positioned content is laid over the page; a relative wrapper only when lifted by a z-index.
  if (position === 'fixed' || position === 'sticky' || position === 'absolute') return { position };
  if (position === 'relative' && style?.zIndex !== 'auto') return { position };
  return undefined;
}

export interface CoverDescription {
  /** The element that stands for the cover (the one the climb settled on). */
  el: Element;
  role: string;
  name: string;
}

/**
 * The cover of `covered`, from the element on top at a point of it: up from `hit` to the first
 * ancestor that stands alone (never one that contains the covered element), else `hit` itself.
 */
export function describeCover(hit: Element, covered: Element): CoverDescription {
  let el = hit;
  let found = standsAlone(hit);
  for (let a = dom.parentElement(hit), depth = 0; !found && a && depth < MAX_CLIMB; a = dom.parentElement(a), depth++) {
    const name = dom.localName(a);
    if (name === 'body' || name === 'html' || dom.contains(a, covered)) break;
    found = standsAlone(a);
    if (found) el = a;
  }
  const name = coverName(el);
  // A modal's backdrop says nothing of itself: what covers the page is the dialog it stands behind.
  if (!name && found?.position && !found.role && fillsViewport(el)) {
    const dialog = openDialog(el, covered);
    if (dialog) return { el: dialog, role: roleOf(dialog) ?? 'dialog', name: coverName(dialog) };
  }
  return { el, role: coverRole(el, found), name };
}

/** Most of the viewport, as a modal's backdrop does. */
function fillsViewport(el: Element): boolean {
  const view = dom.ownerDocument(el)?.defaultView;
  if (!view) return false;
  const r = dom.rect(el);
  return r.width * r.height >= 0.8 * view.innerWidth * view.innerHeight;
}

/** Elements looked at for the dialog a backdrop stands behind. */
const MAX_DIALOG_CANDIDATES = 200;

/**
 * The shown dialog a modal's backdrop stands behind (a modal one first), not around the covered
 * element. Libraries put the two side by side (jQuery UI, Bootstrap) or the dialog one level down
 * beside the backdrop (MUI): the backdrop's siblings, its parent's, and their children are looked
 * at, never the whole page.
 */
function openDialog(backdrop: Element, covered: Element): Element | undefined {
  let shown: Element | undefined;
  let looked = 0;
  const consider = (d: Element): Element | undefined => {
    looked++;
    if (d === backdrop || !dom.matches(d, DIALOG_SELECTOR) || dom.contains(d, covered) || !dom.checkVisibility(d, { visibilityProperty: true })) return undefined;
    if (dom.attr(d, 'aria-modal') === 'true' || dom.matches(d, ':modal')) return d;
    shown ??= d;
    return undefined;
  };
  for (let scope = dom.parentElement(backdrop), level = 0; scope && level < 2; scope = dom.parentElement(scope), level++) {
    for (const child of elementChildren(scope)) {
      if (looked >= MAX_DIALOG_CANDIDATES) return shown;
      const modal =
        consider(child) ??
        elementChildren(child)
          .map(consider)
          .find((d) => d !== undefined);
      if (modal) return modal;
    }
  }
  return shown;
}

/** An element's element children (the first few). */
function elementChildren(el: Element, max = 50): Element[] {
  const out: Element[] = [];
  for (let c = dom.firstChild(el); c && out.length < max; c = dom.nextSibling(c)) if (dom.nodeType(c) === 1) out.push(c as Element);
  return out;
}

function coverRole(el: Element, found: { role?: string; position?: string } | undefined): string {
  if (found?.role) return found.role;
  const role = roleOf(el);
  if (role && !PLAIN_ROLES.has(role)) return role;
  if (!found?.position) return 'element';
  let edge: 'top' | 'bottom' | undefined;
  const view = dom.ownerDocument(el)?.defaultView;
  if (view) {
    const r = dom.rect(el);
    const top = r.top <= 1;
    const bottom = r.bottom >= view.innerHeight - 1;
    // A bar along one edge; something from top to bottom is an overlay.
    if (top !== bottom) edge = top ? 'top' : 'bottom';
  }
  return coverWord(found.position, edge);
}

/** Its aria-label / labelledby, else a heading inside it, else its first words (bounded). */
function coverName(el: Element): string {
  let name = '';
  if (dom.has(el, 'aria-label') || dom.has(el, 'aria-labelledby')) {
    try {
      name = computeAccessibleName(el);
    } catch {
      name = dom.attr(el, 'aria-label') ?? '';
    }
  }
  if (!name.trim()) {
    const heading = dom.queryOne(el, HEADING_SELECTOR);
    if (heading) name = dom.text(heading);
  }
  if (!name.trim()) name = firstText(el);
  return cleanText(name, MAX_NAME);
}

/** The first text of a subtree that is not in a script or style (a banner's sentence, not its ✕). */
function firstText(el: Element): string {
  const doc = dom.ownerDocument(el);
  if (!doc) return '';
  const walker = dom.treeWalker(doc, el, 0x4);
  for (let n = walker.nextNode(), i = 0; n && i < 200; n = walker.nextNode(), i++) {
    const parent = dom.parentElement(n);
    if (parent && /^(?:script|style|noscript|template)$/.test(dom.localName(parent))) continue;
    const text = (n as Text).data;
    if (text.trim()) return text;
  }
  return '';
}

/** A control inside `cover` that dismisses it (Close, Accept, ✕…) and that `isControl` says the observation reports. */
export function dismissControl(cover: Element, isControl: (el: Element) => boolean): Element | undefined {
  const candidates = dom.queryAll(cover, CONTROL_SELECTOR);
  for (let i = 0; i < candidates.length && i < MAX_DISMISS_CANDIDATES; i++) {
    const c = candidates[i]!;
    const label = dom.attr(c, 'aria-label') ?? (dom.text(c).trim() || dom.attr(c, 'title') || dom.attr(c, 'value') || '');
    if (isDismissLabel(label) && isControl(c)) return c;
  }
  return undefined;
}
