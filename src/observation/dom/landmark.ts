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

/**
 * `plain`: per snapshot, whether an element and every element above it (up to <body> or <main>)
 * is neither a breadcrumb nor a navigation landmark. Texts share their ancestors, so with it most
 * texts cost a lookup or two instead of a climb reading attributes at every level.
 */
export function landmarkOf(node: Node, plain?: Map<Element, boolean>): string | undefined {
  let el = dom.nodeType(node) === 1 ? (node as Element) : dom.parentElement(node);
  if (el && plain && isPlain(el, plain)) return undefined;
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

/** Whether nothing from `el` up to <body> / <main> marks a landmark (see landmarkOf), memoised in `plain`. */
function isPlain(start: Element, plain: Map<Element, boolean>): boolean {
  const climbed: Element[] = [];
  let answer = true;
  for (let el: Element | null = start; el; el = up(el)) {
    const known = plain.get(el);
    if (known !== undefined) {
      answer = known;
      break;
    }
    const name = dom.localName(el);
    if (name === 'body' || name === 'main') {
      plain.set(el, true);
      break;
    }
    climbed.push(el);
    if (isBreadcrumb(el, name) || isNavigation(el, name)) {
      answer = false;
      break;
    }
  }
  for (const el of climbed) plain.set(el, answer);
  return answer;
}
