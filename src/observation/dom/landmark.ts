import { dom } from './native.ts';

/**
 * The navigation landmark a text sits in (SnapshotText.landmark): its accessible name in lower
 * case (`breadcrumb`, `pagination`), or `navigation` when it has none. Breadcrumbs are marked
 * in many ways (`<nav aria-label="Breadcrumbs">`, `<ol class="breadcrumb">`, MUI's
 * `aria-label="breadcrumb"`, Shoelace's `<sl-breadcrumb>` whose nav lives in its shadow root);
 * all of them read `breadcrumb` so fusion can find the trail.
 */

/** Crumbs and nav links sit a few levels inside their landmark; a bound keeps this cheap on deep pages. */
const MAX_DEPTH = 8;
const MAX_NAME = 60;
const LISTS = new Set(['nav', 'ol', 'ul']);

function isBreadcrumb(el: Element, name: string): boolean {
  if (name.includes('breadcrumb')) return true; // <sl-breadcrumb>, <app-breadcrumbs>
  if (/breadcrumb/i.test(dom.attr(el, 'aria-label') ?? '')) return true;
  return LISTS.has(name) && /breadcrumb/i.test(dom.attr(el, 'class') ?? '');
}

function isNavigation(el: Element, name: string): boolean {
  return name === 'nav' || (dom.attr(el, 'role') ?? '').trim().toLowerCase() === 'navigation';
}

/** The parent element, or the shadow host when the walk reaches a shadow root. */
function up(el: Element): Element | null {
  const parent = dom.parentElement(el);
  if (parent) return parent;
  const root = dom.rootNode(el) as Partial<ShadowRoot>;
  return root && root !== el && 'host' in root && root.host ? root.host : null;
}

export function landmarkOf(node: Node): string | undefined {
  let el = dom.nodeType(node) === 1 ? (node as Element) : dom.parentElement(node);
  let nav: Element | undefined;
  for (let depth = 0; el && depth < MAX_DEPTH; depth++, el = up(el)) {
    const name = dom.localName(el);
    if (name === 'body' || name === 'main') break;
    if (isBreadcrumb(el, name)) return 'breadcrumb';
    if (!nav && isNavigation(el, name)) nav = el;
  }
  if (!nav) return undefined;
  const label = (dom.attr(nav, 'aria-label') ?? '').replace(/\s+/g, ' ').trim().toLowerCase().slice(0, MAX_NAME);
  return label || 'navigation';
}
