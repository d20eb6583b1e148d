import { dom } from './native.ts';
import { plainPathPrefix, plainPathTarget } from './plain-href.ts';

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

/** Per document: its base URL, the targets of raw values, and the prefix of plain absolute paths (plain-href.ts). */
interface Table {
  base: string;
  byRaw: Map<string, string>;
  plainPrefix: string | undefined;
}

const kept = new WeakMap<Document, Table>();

/** The browser's own answer: a string for HTML links (SVG's `href` is an SVGAnimatedString, not a target). */
function nativeTarget(el: Element): string {
  const href = (el as HTMLAnchorElement).href;
  return typeof href === 'string' ? href : '';
}

export class LinkTargets {
  private readonly thisCapture = new Map<Document, Table>();

  constructor(private readonly baseOf: (doc: Document) => string) {}

  /** The resolved target of an `a` or `area` element, as `el.href` gives it ('' for none). */
  of(el: Element): string {
    const raw = dom.attr(el, 'href');
    if (raw === null) return '';
    const doc = dom.ownerDocument(el);
    if (!doc || dom.namespace(el) !== HTML_NAMESPACE) return nativeTarget(el);
    const table = this.tableFor(doc);
    let target = table.byRaw.get(raw);
    if (target === undefined) {
      target = plainPathTarget(raw, table.plainPrefix) ?? nativeTarget(el);
      table.byRaw.set(raw, target);
    }
    return target;
  }

  private tableFor(doc: Document): Table {
    let table = this.thisCapture.get(doc);
    if (table) return table;
    const base = this.baseOf(doc);
    table = kept.get(doc);
    if (!table || table.base !== base || table.byRaw.size > MAX_KEPT) {
      table = { base, byRaw: new Map(), plainPrefix: plainPathPrefix(base) };
      kept.set(doc, table);
    }
    this.thisCapture.set(doc, table);
    return table;
  }
}
