import { dom } from './native.ts';

/**
 * The navigation landmark a text sits in (SnapshotText.landmark): its accessible name in lower
 * case (`breadcrumb`, `pagination`), or `navigation` when it has none. Breadcrumbs are marked
 * in many ways (`<nav aria-label="Breadcrumbs">`, `<ol class="breadcrumb">`, MUI's
 * `MuiBreadcrumbs-root`); all of them read `breadcrumb…` so fusion can find the trail.
 */

const NAV = 'nav, [role="navigation"]';
const BREADCRUMB = '[aria-label*="breadcrumb" i], nav[class*="breadcrumb" i], ol[class*="breadcrumb" i], ul[class*="breadcrumb" i]';
const MAX_NAME = 60;

export function landmarkOf(node: Node): string | undefined {
  const el = dom.nodeType(node) === 1 ? (node as Element) : dom.parentElement(node);
  if (!el) return undefined;
  const crumbs = dom.closest(el, BREADCRUMB);
  if (crumbs) return 'breadcrumb';
  const nav = dom.closest(el, NAV);
  if (!nav) return undefined;
  const name = (dom.attr(nav, 'aria-label') ?? '').replace(/\s+/g, ' ').trim().toLowerCase().slice(0, MAX_NAME);
  return name || 'navigation';
}
