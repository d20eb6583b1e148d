import { cursorKind, cursorSubject, hoverReveal, splitSelectorList, type HoverReveal } from './css-selectors.ts';
import { dom } from './native.ts';
import { isStewardSheet } from './own-sheets.ts';

/**
 * What a tree's stylesheets can do, read once per stylesheet change, so that per-element work can
 * be skipped when it cannot matter:
 * - `pseudoContent`: a rule gives ::before / ::after `content` (or a <q> adds quotes). accname includes
 *   generated content in names, so dom-accessibility-api reads two pseudo-element styles per node
 *   — a third of its cost. Without such rules those reads cannot change a name.
 * - `hiding`: a rule or inline style sets `visibility` or `content-visibility`. Without them, an
 *   element with a non-empty box is rendered and visible, and `checkVisibility` is only needed
 *   for empty boxes (display:none, closed <details>).
 * A stylesheet that cannot be read (another origin) or is too large to scan counts as "can".
 *
 * The same pass collects the tree's interactivity cues (issue 26): the selectors of rules that
 * give a pointer cursor (a click) or a grab / move cursor (a drag), and of `:hover` rules that
 * show something inside the hovered element (a CSS hover menu). The walker matches them in its
 * one query per tree, so a computed style is never read per element.
 */

export interface StyleFacts {
  pseudoContent: boolean;
  hiding: boolean;
}

/** A tree's interactivity cues from its stylesheets (see the file comment). */
export interface StyleCues {
  /** Selector lists ('' for none): elements with a pointer cursor, and with a grab or move cursor. */
  pointer: string;
  grab: string;
  /** `:hover` rules that show something inside the element hovered. */
  hover: readonly HoverReveal[];
  /** Every cue selector in one list, plus inline cursor styles: what the walker's query adds. */
  query: string;
  /** Top-level rules of the tree's sheets when read (rules inserted later, as CSS-in-JS does, change it). */
  rules: number;
}

const MAX_RULES = 20_000;
/**
 * Cue selectors kept per tree. Each costs the walker's query a check per element (about 0.15 ms
 * on a 16k-element page): beyond these a page's cursor rules are ignored (no cursor evidence)
 * rather than slowing every observation.
 */
const MAX_POINTER = 32;
const MAX_GRAB = 16;
const MAX_HOVER = 16;
const NO_CONTENT = new Set(['', 'none', 'normal']);
const ANYTHING: StyleFacts = { pseudoContent: true, hiding: true };
/** Elements styled inline with a cursor: always part of the cue query. */
const INLINE_CURSOR_SELECTOR = '[style*="cursor" i]';

interface RuleList {
  readonly length: number;
  [index: number]: CSSRule;
}

interface Scan {
  facts: StyleFacts;
  left: number;
  pointer: Set<string>;
  grab: Set<string>;
  hover: Map<string, HoverReveal>;
  /** Tries a selector: querySelector on an empty fragment throws for one the browser does not accept. */
  valid: (selector: string) => boolean;
}

function noteCues(selectorText: string, style: CSSStyleDeclaration, scan: Scan): void {
  const cursor = cursorKind(style.getPropertyValue('cursor'));
  if (cursor) {
    const into = cursor === 'pointer' ? scan.pointer : scan.grab;
    for (const one of splitSelectorList(selectorText)) {
      const subject = cursorSubject(one);
      if (subject && !into.has(subject) && scan.valid(subject)) into.add(subject);
    }
  }
  if (selectorText.includes(':hover') && reveals(style)) {
    for (const one of splitSelectorList(selectorText)) {
      const reveal = hoverReveal(one);
      if (reveal && !scan.hover.has(reveal.target) && scan.valid(reveal.target) && scan.valid(reveal.shown)) scan.hover.set(reveal.target, reveal);
    }
  }
}

/** A declaration block that makes something shown: display other than none, visibility visible, opacity above 0. */
function reveals(style: CSSStyleDeclaration): boolean {
  const display = style.getPropertyValue('display');
  if (display !== '' && display !== 'none') return true;
  if (style.getPropertyValue('visibility') === 'visible') return true;
  const opacity = style.getPropertyValue('opacity');
  return opacity !== '' && Number.parseFloat(opacity) > 0;
}

function scan(rules: RuleList, s: Scan): void {
  for (let i = 0; i < rules.length; i++) {
    if (--s.left < 0) {
      s.facts.pseudoContent = s.facts.hiding = true;
      return;
    }
    const rule = rules[i]!;
    const selector = (rule as CSSStyleRule).selectorText;
    if (typeof selector === 'string') {
      const style = (rule as CSSStyleRule).style;
      if (style) {
        // `*::before { box-sizing: border-box }` is everywhere and generates nothing: only `content` does.
        if (!s.facts.pseudoContent && (selector.includes(':before') || selector.includes(':after')) && !NO_CONTENT.has(style.getPropertyValue('content'))) s.facts.pseudoContent = true;
        if (!s.facts.hiding && (style.getPropertyValue('visibility') !== '' || style.getPropertyValue('content-visibility') !== '')) s.facts.hiding = true;
        noteCues(selector, style, s);
      } else if (selector.includes(':before') || selector.includes(':after')) s.facts.pseudoContent = true;
    }
    const nested = (rule as CSSGroupingRule).cssRules;
    if (nested && nested.length > 0) scan(nested, s);
    const imported = (rule as CSSImportRule).styleSheet;
    if (imported) scanSheet(imported, s);
  }
}

function scanSheet(sheet: CSSStyleSheet, s: Scan): void {
  if (isStewardSheet(sheet)) return;
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    s.facts.pseudoContent = s.facts.hiding = true;
    return;
  }
  scan(rules, s);
}

/** Elements that say something about styles by themselves: `<q>` (quotes are generated content) and inline `visibility`. */
export const STYLE_MARK_SELECTOR = 'q,[style*="visibility" i]';

/** What the tree's STYLE_MARK_SELECTOR elements (`marks`, when already queried; see walker.ts `indexTree`) say. */
export function inlineFacts(root: Document | ShadowRoot, marks?: ArrayLike<Element>): StyleFacts {
  try {
    const marked = marks ?? dom.queryAll(root, STYLE_MARK_SELECTOR);
    const facts: StyleFacts = { pseudoContent: false, hiding: false };
    for (let i = 0; i < marked.length; i++) {
      if (dom.localName(marked[i]!) === 'q') facts.pseudoContent = true;
      if (/visibility/i.test(dom.attr(marked[i]!, 'style') ?? '')) facts.hiding = true;
    }
    return facts;
  } catch {
    return { ...ANYTHING };
  }
}

function sheetsOf(root: Document | ShadowRoot): CSSStyleSheet[] {
  return [...Array.from(root.styleSheets), ...(root.adoptedStyleSheets ?? [])];
}

/** The facts and cues of a tree's stylesheets (its inline styles aside: `inlineFacts`). */
export function scanSheets(root: Document | ShadowRoot): { facts: StyleFacts; cues: StyleCues } {
  const fragment = (dom.isDocument(root) ? root : (dom.ownerDocument(root) ?? document)).createDocumentFragment();
  const s: Scan = {
    facts: { pseudoContent: false, hiding: false },
    left: MAX_RULES,
    pointer: new Set(),
    grab: new Set(),
    hover: new Map(),
    valid: (selector) => {
      try {
        dom.queryOne(fragment, selector);
        return true;
      } catch {
        return false;
      }
    },
  };
  try {
    for (const sheet of sheetsOf(root)) scanSheet(sheet, s);
  } catch {
    return { facts: { ...ANYTHING }, cues: cuesOf(new Set(), new Set(), new Map(), ruleCount(root)) };
  }
  return { facts: s.facts, cues: cuesOf(s.pointer, s.grab, s.hover, ruleCount(root)) };
}

function cuesOf(pointer: Set<string>, grab: Set<string>, hover: Map<string, HoverReveal>, rules: number): StyleCues {
  const p = pointer.size <= MAX_POINTER ? [...pointer].join(',') : '';
  const g = grab.size <= MAX_GRAB ? [...grab].join(',') : '';
  const h = hover.size <= MAX_HOVER ? [...hover.values()] : [];
  const query = [INLINE_CURSOR_SELECTOR, p, g, ...h.map((x) => x.target)].filter(Boolean).join(',');
  return { pointer: p, grab: g, hover: h, query, rules };
}

/** Cues of a tree nobody has read yet: only inline cursor styles. */
export const NO_CUES: StyleCues = cuesOf(new Set(), new Set(), new Map(), -1);

/** The tree's top-level rules now (cheap: a length per sheet), to notice rules a script inserted without a mutation. */
export function ruleCount(root: Document | ShadowRoot): number {
  let n = 0;
  try {
    for (const sheet of sheetsOf(root)) {
      if (isStewardSheet(sheet)) continue;
      try {
        n += sheet.cssRules.length;
      } catch {
        n += 1;
      }
    }
  } catch {
    return -1;
  }
  return n;
}

/** Either tree can do what either can. */
export function mergeFacts(a: StyleFacts, b: StyleFacts): StyleFacts {
  return { pseudoContent: a.pseudoContent || b.pseudoContent, hiding: a.hiding || b.hiding };
}
