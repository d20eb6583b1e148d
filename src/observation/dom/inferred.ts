import { INLINE_HANDLER_MARKS, LISTENER_MARK_ATTRIBUTE, MARK, parseMarks } from '../../protocol/listener-marks.ts';
import { cleanText } from '../clean-text.ts';
import { DROP_ZONE_SELECTOR, focusableTabIndex, inferableRole, INTERACTIVE_ROLES, isEditingHostValue, NEVER_INFERRED } from './classify.ts';
import { inlineCursor } from './css-selectors.ts';
import { classWords, inferControl, type InferredControl } from './infer-control.ts';
import { LIMITS } from './limits.ts';
import { dom } from './native.ts';
import type { StyleCues } from './style-scan.ts';

/**
 * The DOM side of inferring controls (issue 26): the walker hands over an element its one query
 * found (an attribute, a cursor rule, a `:hover` rule), and this reads the facts infer-control.ts
 * decides from. Everything costly here runs for those candidates only, never per element.
 */

/** Cue bits of an element from its tree's style rules (see `cueBits`). */
const CUE_POINTER = 1;
const CUE_GRAB = 2;
const CUE_HOVER = 4;
/** Not a style rule's: the list item a grip sits in (`gripRowOf`). */
const CUE_GRIP_ROW = 8;

/**
 * The list item an element with a grab cursor sits in (a drag grip): the rows of a list sorted by
 * dragging are where its items drop, so the index adds them as candidates. Read only for the few
 * elements a grab cursor rule matches.
 */
export function noteGripRow(el: Element, bits: number, special: Set<Element>, cues: Map<Element, number>): void {
  if (!(bits & CUE_GRAB)) return;
  const row = dom.closest(el, 'li');
  if (!row || row === el) return;
  special.add(row);
  cues.set(row, (cues.get(row) ?? 0) | CUE_GRIP_ROW);
}

/** Which of the tree's cue selectors an element matches (called only for elements the cue query found). */
export function cueBits(el: Element, cues: StyleCues): number {
  const inline = inlineCursor(dom.attr(el, 'style'));
  let bits = 0;
  if (inline === 'pointer' || (inline === undefined && cues.pointer !== '' && dom.matches(el, cues.pointer))) bits |= CUE_POINTER;
  if (inline === 'grab' || (inline === undefined && cues.grab !== '' && dom.matches(el, cues.grab))) bits |= CUE_GRAB;
  for (const h of cues.hover) {
    if (dom.matches(el, h.target)) {
      bits |= CUE_HOVER;
      break;
    }
  }
  return bits;
}

const INTERACTIVE_ROLE_SELECTOR = [...INTERACTIVE_ROLES].map((r) => `[role~="${r}" i]`).join(',');
/** What makes an element a control, or a candidate for one: an element holding one is not a control itself. */
const CONTROL_INSIDE = `a[href],area[href],button,input:not([type="hidden" i]),select,textarea,summary,iframe,[contenteditable]:not([contenteditable="false" i]),[tabindex]:not([tabindex^="-"]),[onclick],[draggable="true" i],[${LISTENER_MARK_ATTRIBUTE}],${INTERACTIVE_ROLE_SELECTOR}`;

/** Any inline handler attribute: one native check before reading which. */
const INLINE_HANDLERS = [...INLINE_HANDLER_MARKS.keys()].map((name) => `[${name}]`).join(',');

/** Words past this make a text (a card body, an article), not a control's name. */
const LONG_TEXT = 200;
/** Nodes looked at for a candidate's text: a candidate with more is a region of the page, not a control. */
const MAX_TEXT_NODES = 400;
const NEVER_TEXT = new Set(['script', 'style', 'noscript', 'template', 'select', 'option', 'optgroup', 'datalist', 'textarea']);
/**
 * Inline formatting: no word break at its edges (`<b>H</b>ello` is one word). Any other element
 * may be laid out apart (spans in a flex row: a sender and a subject), so a space goes between.
 */
const GLUED = new Set(['b', 'i', 'em', 'strong', 'u', 's', 'small', 'sup', 'sub', 'mark', 'code', 'abbr', 'font', 'kbd', 'q']);

interface TextScan {
  text: string;
  ownText: boolean;
  nodes: number;
}

/**
 * A candidate's text without the text of controls inside it, bounded (`limit` characters once
 * cleaned: four times as many raw, as blockText does); `ownText`: a text node is its direct child.
 */
function textOf(el: Element, limit: number, holds: string): TextScan {
  const scan: TextScan = { text: '', ownText: false, nodes: 0 };
  collect(el, scan, limit * 4, holds, 0);
  return scan;
}

function collect(parent: Node, scan: TextScan, limit: number, holds: string, depth: number): void {
  for (let n = dom.firstChild(parent); n && scan.text.length <= limit && scan.nodes < MAX_TEXT_NODES && depth < 32; n = dom.nextSibling(n)) {
    scan.nodes++;
    const type = dom.nodeType(n);
    if (type === 3) {
      const data = (n as Text).data;
      if (depth === 0 && /\S/.test(data)) scan.ownText = true;
      scan.text += data;
    } else if (type === 1) {
      const child = n as Element;
      const name = dom.localName(child);
      if (NEVER_TEXT.has(name) || dom.matches(child, holds)) continue;
      const gap = GLUED.has(name) ? '' : ' ';
      scan.text += gap;
      collect(child, scan, limit, holds, depth + 1);
      scan.text += gap;
    }
  }
}

/** Siblings (itself included) carrying `word` in their class or id, or, for an only child, its parent's siblings holding one. */
function alikeCounter(el: Element, localName: string): (word: string) => number {
  return (word) => {
    const parent = dom.parentElement(el);
    if (!parent) return 1;
    const count = (list: Element, tag: string, probe: (e: Element) => boolean) => {
      let n = 0;
      let seen = 0;
      for (let c = dom.firstElementChild(list); c && seen < 64; c = dom.nextElementSibling(c), seen++) if (dom.localName(c) === tag && probe(c)) n++;
      return n;
    };
    const has = (e: Element) => classWords(dom.attr(e, 'class'), dom.attr(e, 'id')).includes(word);
    const siblings = count(parent, localName, has);
    if (siblings >= 2) return siblings;
    const grand = dom.parentElement(parent);
    if (!grand || dom.childElementCount(parent) > 2) return siblings;
    const parentTag = dom.localName(parent);
    return Math.max(
      siblings,
      count(grand, parentTag, (p) => count(p, localName, has) > 0),
    );
  };
}

/** An item of a nested list: its list item holds a list, or its list sits in another item. */
function inNestedList(el: Element): boolean {
  const li = dom.closest(el, 'li,[role=treeitem]');
  if (!li) return false;
  if (dom.queryOne(li, ':scope > ul, :scope > ol, :scope > [role=group]')) return true;
  const list = dom.parentElement(li);
  return list !== null && dom.parentElement(list) !== null && dom.closest(dom.parentElement(list)!, 'li') !== null;
}

/** Whether a `:hover` rule that matches it shows something it holds (a menu that `.x:hover .sub` opens). */
function revealsInside(el: Element, cues: StyleCues): boolean {
  for (const h of cues.hover) {
    try {
      if (dom.matches(el, h.target) && dom.queryOne(el, h.shown)) return true;
    } catch {
      // A selector the browser took in a stylesheet but not in a query: no evidence.
    }
  }
  return false;
}

export interface CandidateInput {
  el: Element;
  localName: string;
  /** CUE_* bits of its tree's style rules. */
  cueBits: number;
  cues: StyleCues;
  /** It has one of STRUCTURAL_ATTRIBUTES_SELECTOR's attributes (else none of them is read). */
  special: boolean;
  /** Its shadow root (a custom element's): what it holds there counts too. */
  shadow?: ShadowRoot;
}

/**
 * The control Steward takes `el` for, when it has no control tag or widget role, or undefined.
 * Cheap reads first: an element with no evidence at all costs a few attribute reads.
 */
export function inferAt(input: CandidateInput): InferredControl | undefined {
  const { el, localName, special } = input;
  if (NEVER_INFERRED.has(localName)) return undefined;
  const attr = (name: string) => (special ? dom.attr(el, name) : null);
  if (!inferableRole(attr('role'))) return undefined;
  // Edit listeners say typing runs the page's code, not that an element is a control.
  const listeners = parseMarks(attr(LISTENER_MARK_ATTRIBUTE)) & ~MARK.edit;
  let inline = 0;
  if (special && dom.matches(el, INLINE_HANDLERS)) for (const [name, bit] of INLINE_HANDLER_MARKS) if (dom.has(el, name)) inline |= bit;
  const draggable = (attr('draggable') ?? '').trim().toLowerCase() === 'true';
  const tabindex = focusableTabIndex(attr('tabindex'));
  const editable = isEditingHostValue(attr('contenteditable'));
  const cursor = input.cueBits & CUE_GRAB ? 'grab' : input.cueBits & CUE_POINTER ? 'pointer' : undefined;
  const hoverStyle = (input.cueBits & CUE_HOVER) !== 0 && revealsInside(el, input.cues);
  const dropZone = special && dom.matches(el, DROP_ZONE_SELECTOR);
  const gripRow = (input.cueBits & CUE_GRIP_ROW) !== 0;
  if (!listeners && !inline && !draggable && !tabindex && !editable && !cursor && !hoverStyle && !dropZone && !gripRow) return undefined;
  const cheap = { tag: localName, listeners, inline, draggable, cursor, tabindex, editable, hoverStyle, dropZone, gripRow } as const;
  // An editor is a text box whatever it holds: nothing more to read.
  if (editable) return inferControl({ ...cheap, holdsControls: false, ownText: false, empty: false, longText: false, words: [], parentWords: [], alike: () => 0, nestedList: false });
  // A candidate: what it holds, its text, its words.
  const holds = holdsSelector(input.cues);
  const text = textOf(el, LONG_TEXT, holds);
  const parent = dom.parentElement(el);
  return inferControl({
    ...cheap,
    // A custom element listening on itself for the button in its shadow tree is that button's host, not a second control.
    holdsControls: dom.queryOne(el, holds) !== null || (input.shadow !== undefined && dom.queryOne(input.shadow, CONTROL_INSIDE) !== null),
    ownText: text.ownText,
    empty: !text.ownText && dom.childElementCount(el) === 0,
    longText: cleanText(text.text, LONG_TEXT + 1).length > LONG_TEXT || text.nodes >= MAX_TEXT_NODES,
    words: classWords(dom.attr(el, 'class'), dom.attr(el, 'id')),
    parentWords: parent ? classWords(dom.attr(parent, 'class'), dom.attr(parent, 'id')) : [],
    alike: alikeCounter(el, localName),
    nestedList: inNestedList(el),
  });
}

const holdsCache = new WeakMap<StyleCues, string>();
function holdsSelector(cues: StyleCues): string {
  let s = holdsCache.get(cues);
  if (s === undefined) {
    s = [CONTROL_INSIDE, cues.pointer, cues.grab].filter(Boolean).join(',');
    holdsCache.set(cues, s);
  }
  return s;
}

const HEADING = 'h1,h2,h3,h4,h5,h6,[role=heading],legend,caption';

/**
 * A name for an inferred control that accname leaves unnamed (a generic element has no name from
 * its content): its text without the controls it holds, else the text of the first control it
 * holds (a hover menu's title link), else an SVG title or an image's alt inside (an icon); a drop
 * target by its heading or its own text. May be empty: an icon-only opener is told apart by its row.
 */
export function inferredName(el: Element, role: string, cues: StyleCues | undefined): string {
  const max = LIMITS.maxNameLength;
  const holds = cues ? holdsSelector(cues) : CONTROL_INSIDE;
  if (role === 'region') {
    const heading = dom.queryOne(el, HEADING);
    if (heading) return cleanText(dom.text(heading), max);
    let own = '';
    for (let n = dom.firstChild(el); n; n = dom.nextSibling(n)) if (dom.nodeType(n) === 3) own += (n as Text).data;
    // A sortable row keeps its words in spans beside its grip: its text without the grip.
    return cleanText(own, max) || cleanText(textOf(el, max, holds).text, max);
  }
  const text = cleanText(textOf(el, max, holds).text, max);
  if (text) return text;
  const first = dom.queryOne(el, CONTROL_INSIDE);
  if (first) {
    const named = dom.attr(first, 'aria-label') ?? dom.attr(first, 'title') ?? dom.text(first);
    if (named.trim()) return cleanText(named, max);
  }
  const icon = dom.queryOne(el, 'svg title, img[alt]:not([alt=""])');
  if (icon) return cleanText(dom.localName(icon) === 'img' ? (dom.attr(icon, 'alt') ?? '') : dom.text(icon), max);
  return '';
}
