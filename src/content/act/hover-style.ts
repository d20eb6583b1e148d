import { HOVER_ATTRIBUTE } from '../../observation/dom/hover-chain.ts';
import { dom } from '../../observation/dom/native.ts';
import { isStewardSheet, markStewardSheet } from '../../observation/dom/own-sheets.ts';

/**
 * CSS `:hover` for Steward's pointer (issue 26). Synthetic pointer events do not move the
 * browser's hover state, so a menu that only a `:hover` rule opens (`.nav li:hover > ul`) stays
 * shut for dom.hover. Instead, each tree's same-origin `:hover` rules that change layout or
 * visibility are mirrored into one constructed stylesheet Steward adopts into that tree, with
 * `:hover` replaced by an attribute (HOVER_ATTRIBUTE) that Steward puts on the element its
 * pointer rests on and on that element's ancestors — the elements `:hover` matches for a real
 * pointer — and takes off them when the pointer moves on. Rules that only recolour are left out:
 * they change nothing an agent reads, and every hover would otherwise re-read the page's geometry.
 * Bounded: at most MAX_SCANNED rules read and MAX_MIRRORED mirrored per tree, and a tree's mirror is
 * built again only when its number of rules changed.
 */

const MAX_SCANNED = 20_000;
const MAX_MIRRORED = 2_000;
/** Declarations that show, hide or move something: a `:hover` rule with one of them is mirrored. */
const LAYOUT = [
  'display',
  'visibility',
  'opacity',
  'max-height',
  'height',
  'max-width',
  'width',
  'transform',
  'left',
  'top',
  'right',
  'bottom',
  'clip',
  'clip-path',
  'position',
  'pointer-events',
  'overflow',
  'z-index',
];
const HOVER = /:hover(?![\w-])/g;
// Through the prototype: a <form> can shadow its own methods with a control named like them.
const setAttributeFn = Element.prototype.setAttribute;
const removeAttributeFn = Element.prototype.removeAttribute;
const SKIPPED = new Set(['html', 'body']);

interface Mirror {
  sheet: CSSStyleSheet;
  /** Rules mirrored into it. */
  mirrored: number;
  /** The tree's top-level rules when it was built. */
  rules: number;
}

const mirrors = new WeakMap<Document | ShadowRoot, Mirror>();
/** The elements each document's emulated hover is on now. */
const chains = new WeakMap<Document, Element[]>();

interface RuleList {
  readonly length: number;
  [index: number]: CSSRule;
}

function sheetsOf(root: Document | ShadowRoot): CSSStyleSheet[] {
  return [...Array.from(root.styleSheets), ...(root.adoptedStyleSheets ?? [])].filter((s) => !isStewardSheet(s));
}

function topLevelRules(root: Document | ShadowRoot): number {
  let n = 0;
  for (const sheet of sheetsOf(root)) {
    try {
      n += sheet.cssRules.length;
    } catch {
      n += 1;
    }
  }
  return n;
}

function changesLayout(style: CSSStyleDeclaration): boolean {
  for (const p of LAYOUT) if (style.getPropertyValue(p) !== '') return true;
  return false;
}

/** The mirrored text of `rules` (`:hover` → the attribute), inside their @media / @supports conditions. */
function mirrorText(rules: RuleList, budget: { scanned: number; mirrored: number }): string {
  let out = '';
  for (let i = 0; i < rules.length && budget.scanned < MAX_SCANNED && budget.mirrored < MAX_MIRRORED; i++) {
    budget.scanned++;
    const rule = rules[i]!;
    const selector = (rule as CSSStyleRule).selectorText;
    if (typeof selector === 'string') {
      const style = (rule as CSSStyleRule).style;
      if (selector.includes(':hover') && style && changesLayout(style)) {
        out += `${selector.replace(HOVER, `[${HOVER_ATTRIBUTE}]`)}{${style.cssText}}\n`;
        budget.mirrored++;
      }
      continue;
    }
    const nested = (rule as CSSGroupingRule).cssRules;
    const condition = (rule as CSSConditionRule).conditionText;
    if (nested && typeof condition === 'string') {
      const inner = mirrorText(nested, budget);
      if (inner) out += `${rule instanceof CSSMediaRule ? '@media' : '@supports'} ${condition}{${inner}}\n`;
    }
    const imported = (rule as CSSImportRule).styleSheet;
    if (imported) out += sheetText(imported, budget);
  }
  return out;
}

function sheetText(sheet: CSSStyleSheet, budget: { scanned: number; mirrored: number }): string {
  try {
    return mirrorText(sheet.cssRules, budget);
  } catch {
    return ''; // another origin's sheet: its rules cannot be read
  }
}

/** The tree's mirror sheet, built (again) when its rules changed; undefined when it has no rule to mirror. */
function mirrorOf(root: Document | ShadowRoot): Mirror | undefined {
  const rules = topLevelRules(root);
  let mirror = mirrors.get(root);
  if (!mirror || mirror.rules !== rules) {
    const budget = { scanned: 0, mirrored: 0 };
    const text = sheetsOf(root)
      .map((s) => sheetText(s, budget))
      .join('');
    const doc = dom.isDocument(root) ? root : dom.ownerDocument(root);
    const Sheet = doc?.defaultView?.CSSStyleSheet ?? CSSStyleSheet;
    const sheet = mirror?.sheet ?? markStewardSheet(new Sheet());
    sheet.replaceSync(text);
    mirror = { sheet, mirrored: budget.mirrored, rules };
    mirrors.set(root, mirror);
  }
  if (mirror.mirrored === 0) return undefined;
  const adopted = root.adoptedStyleSheets;
  // Adopted once, and again when the page replaced its list without it.
  if (!adopted.includes(mirror.sheet)) root.adoptedStyleSheets = [...adopted, mirror.sheet];
  return mirror;
}

/**
 * `el` and its ancestors through shadow hosts (what `:hover` matches for a pointer on `el`),
 * without html and body, nor anything in an editor (the person's document, which the page may
 * save as HTML with the attribute in it).
 */
function composedChain(el: Element): Element[] {
  const out: Element[] = [];
  for (let n: Element | null = el; n && out.length < 256;) {
    if (!SKIPPED.has(dom.localName(n)) && !(n instanceof HTMLElement && dom.isContentEditable(n))) out.push(n);
    const parent: Element | null = dom.parentElement(n);
    if (parent) n = parent;
    else {
      const root = dom.rootNode(n);
      n = dom.nodeType(root) === 11 ? dom.host(root as ShadowRoot) : null;
    }
  }
  return out;
}

/**
 * Moves the emulated hover of `el`'s document onto `el` (null: off it): the attribute goes on
 * `el`'s chain in each tree that has `:hover` rules to mirror, and off the elements it left.
 * Never throws: the pointer events were sent already, this only adds what CSS would do.
 */
export function emulateHover(doc: Document, el: Element | null): void {
  try {
    const next = el ? composedChain(el) : [];
    const withRules = new Map<Node, boolean>();
    const kept = next.filter((n) => {
      const root = dom.rootNode(n) as Document | ShadowRoot;
      let has = withRules.get(root);
      if (has === undefined) {
        has = mirrorOf(root) !== undefined;
        withRules.set(root, has);
      }
      return has;
    });
    const keep = new Set(kept);
    for (const n of chains.get(doc) ?? []) if (!keep.has(n)) removeAttributeFn.call(n, HOVER_ATTRIBUTE);
    for (const n of kept) if (!dom.has(n, HOVER_ATTRIBUTE)) setAttributeFn.call(n, HOVER_ATTRIBUTE, '');
    chains.set(doc, kept);
  } catch {
    // A tree whose sheets or attributes cannot be touched: the page's own listeners still got the events.
  }
}
