import { dom } from './native.ts';

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
 */

export interface StyleFacts {
  pseudoContent: boolean;
  hiding: boolean;
}

const MAX_RULES = 20_000;
const NO_CONTENT = new Set(['', 'none', 'normal']);
const ANYTHING: StyleFacts = { pseudoContent: true, hiding: true };

interface RuleList {
  readonly length: number;
  [index: number]: CSSRule;
}

function scan(rules: RuleList, facts: StyleFacts, budget: { left: number }): void {
  for (let i = 0; i < rules.length && !(facts.pseudoContent && facts.hiding); i++) {
    if (--budget.left < 0) {
      facts.pseudoContent = facts.hiding = true;
      return;
    }
    const rule = rules[i]!;
    const selector = (rule as CSSStyleRule).selectorText;
    if (typeof selector === 'string') {
      const style = (rule as CSSStyleRule).style;
      // `*::before { box-sizing: border-box }` is everywhere and generates nothing: only `content` does.
      if ((selector.includes(':before') || selector.includes(':after')) && (!style || !NO_CONTENT.has(style.getPropertyValue('content')))) facts.pseudoContent = true;
      if (style && (style.getPropertyValue('visibility') !== '' || style.getPropertyValue('content-visibility') !== '')) facts.hiding = true;
    }
    const nested = (rule as CSSGroupingRule).cssRules;
    if (nested && nested.length > 0) scan(nested, facts, budget);
    const imported = (rule as CSSImportRule).styleSheet;
    if (imported) scanSheet(imported, facts, budget);
  }
}

function scanSheet(sheet: CSSStyleSheet, facts: StyleFacts, budget: { left: number }): void {
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    facts.pseudoContent = facts.hiding = true;
    return;
  }
  scan(rules, facts, budget);
}

/** Elements that say something about styles by themselves: `<q>` (quotes are generated content) and inline `visibility`. */
export const STYLE_MARK_SELECTOR = 'q,[style*="visibility" i]';

/** `marks`: the tree's STYLE_MARK_SELECTOR elements, when already queried (see walker.ts `indexTree`). */
export function scanStyles(root: Document | ShadowRoot, marks?: ArrayLike<Element>): StyleFacts {
  try {
    const marked = marks ?? dom.queryAll(root, STYLE_MARK_SELECTOR);
    const facts: StyleFacts = { pseudoContent: false, hiding: false };
    for (let i = 0; i < marked.length; i++) {
      if (dom.localName(marked[i]!) === 'q') facts.pseudoContent = true;
      if (/visibility/i.test(dom.attr(marked[i]!, 'style') ?? '')) facts.hiding = true;
    }
    const budget = { left: MAX_RULES };
    for (const sheet of Array.from(root.styleSheets)) scanSheet(sheet, facts, budget);
    for (const sheet of root.adoptedStyleSheets ?? []) scanSheet(sheet, facts, budget);
    return facts;
  } catch {
    return { ...ANYTHING };
  }
}

/** Either tree can do what either can. */
export function mergeFacts(a: StyleFacts, b: StyleFacts): StyleFacts {
  return { pseudoContent: a.pseudoContent || b.pseudoContent, hiding: a.hiding || b.hiding };
}
