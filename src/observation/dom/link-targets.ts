import { dom } from './native.ts';

/**
 * Where links go, for one capture. `a.href` parses the attribute and serialises a new URL on every
 * read (about a microsecond, a link at a time); the result depends only on the raw attribute and
 * the document's base URL, so it is kept per document by raw value, across captures, for as long
 * as that base URL stays the same. `baseOf` gives the base URL the capture uses for a document
 * (the model reads it once per update: history.pushState can change it without any mutation).
 */

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
/** Raw values kept per document before its table starts over. */
const MAX_KEPT = 20_000;

const kept = new WeakMap<Document, { base: string; byRaw: Map<string, string> }>();

/** The browser's own answer: a string for HTML links (SVG's `href` is an SVGAnimatedString, not a target). */
function nativeTarget(el: Element): string {
  const href = (el as HTMLAnchorElement).href;
  return typeof href === 'string' ? href : '';
}

export class LinkTargets {
  private readonly thisCapture = new Map<Document, Map<string, string>>();

  constructor(private readonly baseOf: (doc: Document) => string) {}

  /** The resolved target of an `a` or `area` element, as `el.href` gives it ('' for none). */
  of(el: Element): string {
    const raw = dom.attr(el, 'href');
    if (raw === null) return '';
    const doc = dom.ownerDocument(el);
    if (!doc || dom.namespace(el) !== HTML_NAMESPACE) return nativeTarget(el);
    const byRaw = this.tableFor(doc);
    let target = byRaw.get(raw);
    if (target === undefined) {
      target = nativeTarget(el);
      byRaw.set(raw, target);
    }
    return target;
  }

  private tableFor(doc: Document): Map<string, string> {
    let byRaw = this.thisCapture.get(doc);
    if (byRaw) return byRaw;
    const base = this.baseOf(doc);
    let held = kept.get(doc);
    if (!held || held.base !== base || held.byRaw.size > MAX_KEPT) {
      held = { base, byRaw: new Map() };
      kept.set(doc, held);
    }
    byRaw = held.byRaw;
    this.thisCapture.set(doc, byRaw);
    return byRaw;
  }
}
