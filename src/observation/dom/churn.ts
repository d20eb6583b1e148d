import { dom } from './native.ts';

/**
 * Which texts the page changes on its own, again and again (a clock, a countdown, a ticker, a
 * rotating banner): they are shown to agents but are not part of the page's state.
 *
 * Two kinds of evidence:
 * - markup that says so: timers, marquees, logs, carousels and their slides, ad slots;
 * - behaviour: an element whose text changed at least twice within WINDOW_MS, each time with no
 *   pointer, keyboard or form event (trusted or not: an agent's too) in the INPUT_QUIET_MS
 *   before. One change is a real change (a status flipping after a server push).
 * Bounded: a few records per mutation delivery are looked at, at most MAX_HOLDERS elements are
 * remembered, and a snapshot's check costs a few map lookups per text, nothing when nothing churns.
 */

const WINDOW_MS = 30_000;
const INPUT_QUIET_MS = 1_500;
const MAX_HOLDERS = 512;
const RECORDS_PER_DELIVERY = 64;
/** An element with more children than this is a container being laid out, not a text changing. */
const MAX_HOLDER_CHILDREN = 32;
const MAX_HOLDER_TEXT = 2_000;
/** How far above a text (or below a text block) a churning element still makes it volatile. */
const MAX_DEPTH = 6;
const INPUT_EVENTS = ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'keydown', 'keyup', 'input', 'change', 'submit'];

/** Markup that says its content rotates or is not the page's: timers, marquees, logs, carousels, ad slots. */
const VOLATILE_MARKUP = [
  '[role="timer" i]',
  '[role="marquee" i]',
  '[role="log" i]',
  'marquee',
  '[aria-roledescription="carousel" i]',
  '[aria-roledescription="slide" i]',
  '[aria-label="carousel" i]',
  '[aria-label^="slide " i]',
  '[class~="carousel"]',
  '[class~="swiper"]',
  '[class~="slick-slider"]',
  '[class~="splide"]',
  '[aria-label="advertisement" i]',
  '[aria-label^="advertisement " i]',
  '[aria-label="sponsored" i]',
  '[aria-label="ad" i]',
  '[data-ad-slot]',
  '[data-ad-unit]',
  'ins.adsbygoogle',
  '[id^="div-gpt-ad"]',
  '[id^="google_ads"]',
  '[class~="ad-slot"]',
  '[class~="advertisement"]',
].join(',');

/** Attributes that can make an element volatile markup. */
const MARKUP_ATTRIBUTES = ['role', 'aria-roledescription', 'aria-label', 'class', 'id', 'data-ad-slot', 'data-ad-unit'];

interface Changes {
  /** Hash of the text last seen (only a different text is a change). */
  text: number;
  /** Times of the last two changes, oldest first. */
  times: number[];
}

export interface ChurnOptions {
  now?: () => number;
}

/** Decides, for one snapshot, whether a text block (element) or a loose text node is volatile. */
export type VolatileCheck = (node: Element | Text, cacheKey: object) => boolean;

export class ChurnDetector {
  private readonly holders = new Map<Element, Changes>();
  private readonly watched = new WeakSet<Node>();
  private readonly observer: MutationObserver;
  private readonly now: () => number;
  /** Whether a text's element sits in volatile markup, per text object (cached until its text is recomputed or markup appears). */
  private markup = new WeakMap<object, boolean>();
  /** An element became volatile markup since the last check (a component set `aria-roledescription` on upgrade). */
  private markupAdded = false;
  /**
   * Whether an element is volatile markup or inside some (what `closest(VOLATILE_MARKUP)` says),
   * per element: texts share their ancestors, so each is matched once, not once per text under it
   * (and never the rest of a big page, as one query over the whole tree would). Kept until
   * elements are added (one may have moved under markup) or an attribute makes markup.
   */
  private markupElements = new WeakMap<Element, boolean>();
  /** Elements were added since the last check (a tree may hold markup it did not). */
  private elementsAdded = false;
  private lastInput = -Infinity;
  private readonly onInput = () => {
    this.lastInput = this.now();
  };

  constructor(
    private readonly doc: Document,
    options: ChurnOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.observer = new MutationObserver((records) => this.note(records));
    const view = dom.doc.view(doc);
    for (const type of INPUT_EVENTS) view?.addEventListener(type, this.onInput, { capture: true, passive: true });
    // While the parser builds the page every node is "added": watch from when it is parsed.
    if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', () => this.watch(doc), { once: true });
    else this.watch(doc);
  }

  /** Watches one more tree (a shadow root or a frame's document the observer walks). */
  watch(root: Node): void {
    if (this.watched.has(root)) return;
    this.watched.add(root);
    try {
      this.observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: MARKUP_ATTRIBUTES });
    } catch {
      // Not observable (a detached or foreign node): its texts are judged by markup alone.
    }
  }

  dispose(): void {
    this.observer.disconnect();
    const view = dom.doc.view(this.doc);
    for (const type of INPUT_EVENTS) view?.removeEventListener(type, this.onInput, { capture: true });
    this.holders.clear();
  }

  private note(records: MutationRecord[]): void {
    const now = this.now();
    const quiet = now - this.lastInput >= INPUT_QUIET_MS;
    const seen = new Set<Element>();
    if (!this.elementsAdded) this.elementsAdded = addsElements(records);
    const n = Math.min(records.length, RECORDS_PER_DELIVERY);
    for (let i = 0; i < n; i++) {
      const r = records[i]!;
      const target = r.target;
      if (r.type === 'attributes') {
        if (!this.markupAdded && dom.matches(target as Element, VOLATILE_MARKUP)) this.markupAdded = true;
        continue;
      }
      // Whatever changes right after an input is that input's effect, not the page's own churn.
      if (!quiet) continue;
      const holder = dom.nodeType(target) === 1 ? (target as Element) : dom.parentElement(target);
      if (!holder || seen.has(holder)) continue;
      seen.add(holder);
      this.changed(holder, now);
    }
  }

  private changed(holder: Element, now: number): void {
    if (dom.childElementCount(holder) > MAX_HOLDER_CHILDREN) return;
    const text = dom.text(holder);
    if (text.length > MAX_HOLDER_TEXT) return;
    const hash = hashOf(text);
    const known = this.holders.get(holder);
    if (known && known.text === hash) return; // re-rendered with the same text
    const times = known ? [...known.times.slice(-1), now] : [now];
    this.holders.delete(holder); // re-inserted last: the map's order is least recently changed first
    if (this.holders.size >= MAX_HOLDERS) this.holders.delete(this.holders.keys().next().value!);
    this.holders.set(holder, { text: hash, times });
  }

  /** The check for one snapshot: what churns now, and what volatile markup holds. */
  check(): VolatileCheck {
    // Records not delivered yet (made in this task) count too.
    this.note(this.observer.takeRecords());
    const now = this.now();
    if (this.markupAdded || this.elementsAdded) this.markupElements = new WeakMap();
    if (this.markupAdded) this.markup = new WeakMap();
    this.markupAdded = this.elementsAdded = false;
    const hot = new Set<Element>();
    for (const [el, c] of this.holders) {
      if (now - c.times[c.times.length - 1]! > WINDOW_MS) this.holders.delete(el);
      else if (c.times.length >= 2 && now - c.times[0]! <= WINDOW_MS && dom.isConnected(el)) hot.add(el);
    }
    // Text blocks that hold a churning element (`<p>Time <span id=clock>…</span></p>`).
    const holding = new Set<Node>();
    for (const el of hot) {
      let n: Node | null = dom.parentNode(el);
      for (let d = 0; n && d < MAX_DEPTH; d++, n = dom.parentNode(n)) holding.add(n);
    }
    // Elements a churning element holds (itself and a few levels down): one lookup per text
    // instead of a climb. Churning elements are small (MAX_HOLDER_CHILDREN, MAX_HOLDER_TEXT).
    const held = new Set<Node>();
    for (const el of hot) addHeld(held, el, 0);
    return (node, cacheKey) => {
      // Most texts: judged before, and nothing churns (no DOM read at all).
      const known = this.markup.get(cacheKey);
      if (known === true) return true;
      if (known === false && hot.size === 0) return false;
      const el = dom.nodeType(node) === 1 ? (node as Element) : dom.parentElement(node);
      if (!el) return false;
      if (this.inMarkup(el, cacheKey)) return true;
      if (hot.size === 0) return false;
      if (node === el && holding.has(el)) return true;
      return held.has(el);
    };
  }

  private inMarkup(el: Element, cacheKey: object): boolean {
    let v = this.markup.get(cacheKey);
    if (v === undefined) {
      v = this.withinMarkup(el);
      this.markup.set(cacheKey, v);
    }
    return v;
  }

  /** `closest(VOLATILE_MARKUP) !== null`, climbing only to the first element known (markupElements). */
  private withinMarkup(el: Element): boolean {
    const climbed: Element[] = [];
    let answer = false;
    for (let at: Element | null = el; at; at = dom.parentElement(at)) {
      const known = this.markupElements.get(at);
      if (known !== undefined) {
        answer = known;
        break;
      }
      climbed.push(at);
      if (dom.matches(at, VOLATILE_MARKUP)) {
        answer = true;
        break;
      }
    }
    // Only a watched tree tells when elements are added to it (a document is watched once parsed).
    if (this.watched.has(dom.rootNode(el))) for (const at of climbed) this.markupElements.set(at, answer);
    return answer;
  }
}

/** Whether any record added an element (a few nodes per record are looked at: a text change adds a text node). */
function addsElements(records: MutationRecord[]): boolean {
  for (const r of records) {
    if (r.type !== 'childList') continue;
    const added = r.addedNodes;
    if (added.length > 4) return true;
    for (let i = 0; i < added.length; i++) if (dom.nodeType(added[i]!) === 1) return true;
  }
  return false;
}

/** `el` and its element children down to MAX_DEPTH - 1 levels: what climbing MAX_DEPTH parents from a text's element reaches `el` from. */
function addHeld(into: Set<Node>, el: Element, depth: number): void {
  into.add(el);
  if (depth + 1 >= MAX_DEPTH) return;
  for (let c = dom.firstChild(el); c; c = dom.nextSibling(c)) if (dom.nodeType(c) === 1) addHeld(into, c as Element, depth + 1);
}

/** FNV-1a 32 of a short text: enough to tell "changed" from "re-rendered the same". */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
