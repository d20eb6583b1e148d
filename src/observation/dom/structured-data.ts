import type { SnapshotStructuredData } from '../../protocol/snapshot.ts';
import { boundJson, parseJsonLd, type JsonBounds } from './bounded-json.ts';
import { cleanText } from '../clean-text.ts';
import { LIMITS } from './limits.ts';
import { dom } from './native.ts';

/** JSON-LD blocks and microdata items of a document, bounded; parsed JSON-LD is cached per block text. */

const BOUNDS: JsonBounds = {
  maxDepth: LIMITS.maxDataDepth,
  maxKeys: LIMITS.maxDataKeys,
  maxItems: LIMITS.maxDataItems,
  maxString: LIMITS.maxDataString,
};

type Parsed = ReturnType<typeof parseJsonLd>;

export const JSON_LD_SELECTOR = 'script[type="application/ld+json" i]';
export const ITEM_SELECTOR = '[itemscope]';
/** A microdata item that is not a property of another one. */
export const TOP_ITEM_SELECTOR = '[itemscope]:not([itemprop])';

/** The document's JSON-LD scripts and top-level microdata items, in document order, when a walk already found them. */
export interface StructuredMarks {
  scripts: Element[];
  items: Element[];
}

type Read = { items: SnapshotStructuredData[]; blindSpots: string[] };

export class StructuredDataReader {
  private cache = new WeakMap<Element, { text: string; parsed: Parsed }>();
  private lastRead = new WeakMap<Document, Read>();

  /**
   * The document's structured data; `changed: false` (no mutation touched any) reuses the last
   * reading. `marks`: where it is, when this capture's walk already queried the document.
   */
  read(doc: Document, changed = true, marks?: StructuredMarks): Read {
    const last = this.lastRead.get(doc);
    if (last && !changed) return last;
    const read = this.readNow(doc, marks);
    this.lastRead.set(doc, read);
    return read;
  }

  private readNow(doc: Document, marks: StructuredMarks | undefined): Read {
    const items: SnapshotStructuredData[] = [];
    const blindSpots = new Set<string>();
    const scripts = marks?.scripts ?? dom.queryAll(doc, JSON_LD_SELECTOR);
    if (scripts.length > LIMITS.maxJsonLdBlocks) blindSpots.add('json_ld_truncated');
    for (let i = 0; i < scripts.length && i < LIMITS.maxJsonLdBlocks; i++) {
      const script = scripts[i]!;
      const text = dom.text(script);
      let hit = this.cache.get(script);
      if (!hit || hit.text !== text) {
        hit = { text, parsed: parseJsonLd(text, LIMITS.maxJsonLdChars, BOUNDS) };
        this.cache.set(script, hit);
      }
      items.push(...hit.parsed.items);
      hit.parsed.blindSpots.forEach((s) => blindSpots.add(s));
    }
    const micro = readMicrodata(marks?.items ?? dom.queryAll(doc, TOP_ITEM_SELECTOR));
    items.push(...micro.items);
    if (micro.truncated) blindSpots.add('microdata_truncated');
    return { items, blindSpots: [...blindSpots] };
  }
}

function itemType(el: Element): string | undefined {
  const t = dom.attr(el, 'itemtype')?.trim().split(/\s+/)[0];
  return t ? t.replace(/^https?:\/\/schema\.org\//i, '').slice(0, 128) : undefined;
}

// A Map, not an object lookup: a page may use any tag name (`<constructor>` would find Object).
const URL_PROPS = new Map(Object.entries({ a: 'href', area: 'href', link: 'href', img: 'src', audio: 'src', video: 'src', source: 'src', iframe: 'src', embed: 'src', track: 'src', object: 'data' }));

function propValue(el: Element, depth: number, budget: { items: number }): unknown {
  if (dom.has(el, 'itemscope')) return itemObject(el, depth + 1, budget);
  const tag = dom.localName(el);
  if (tag === 'meta') return dom.attr(el, 'content') ?? '';
  const urlAttr = URL_PROPS.get(tag);
  if (urlAttr) return dom.attr(el, urlAttr) ?? '';
  if (tag === 'time') return dom.attr(el, 'datetime') ?? cleanText(dom.text(el), LIMITS.maxDataString);
  if (tag === 'data' || tag === 'meter') return dom.attr(el, 'value') ?? '';
  return cleanText(dom.text(el), LIMITS.maxDataString);
}

/** One microdata item: its own properties (not those of nested items). */
function itemObject(item: Element, depth: number, budget: { items: number }): Record<string, unknown> {
  // Property names are the page's words: without a prototype, `constructor` or `toString` is just a
  // key (not Object's function, which no message can carry); boundJson then drops `__proto__`.
  const out = Object.create(null) as Record<string, unknown>;
  const type = itemType(item);
  if (type) out['@type'] = type;
  if (depth >= LIMITS.maxDataDepth || --budget.items < 0) return out;
  const props = dom.queryAll(item, '[itemprop]');
  for (let i = 0; i < props.length && i < LIMITS.maxDataKeys * 4; i++) {
    const prop = props[i]!;
    const parent = dom.parentElement(prop);
    if (!parent || dom.closest(parent, ITEM_SELECTOR) !== item) continue;
    const value = propValue(prop, depth, budget);
    for (const name of (dom.attr(prop, 'itemprop') ?? '').trim().split(/\s+/)) {
      if (!name) continue;
      const prev = out[name];
      if (prev === undefined) out[name] = value;
      else if (Array.isArray(prev)) prev.push(value);
      else out[name] = [prev, value];
    }
  }
  return out;
}

function readMicrodata(tops: ArrayLike<Element>): { items: SnapshotStructuredData[]; truncated: boolean } {
  const items: SnapshotStructuredData[] = [];
  const budget = { items: LIMITS.maxMicrodataItems * 4 };
  let truncated = tops.length > LIMITS.maxMicrodataItems;
  for (let i = 0; i < tops.length && i < LIMITS.maxMicrodataItems; i++) {
    const raw = itemObject(tops[i]!, 0, budget);
    const { value, truncated: cut } = boundJson(raw, BOUNDS);
    truncated ||= cut || budget.items < 0;
    const data = value as Record<string, unknown>;
    const type = typeof data['@type'] === 'string' ? (data['@type'] as string) : undefined;
    items.push(type ? { kind: 'microdata', type, data } : { kind: 'microdata', data });
  }
  return { items, truncated };
}
