/**
 * Reading the page's CSS selectors for what they say about interactivity (pure string work, so it
 * is unit-tested without a browser): which elements a rule gives a pointer or grab cursor, and
 * which elements a `:hover` rule opens something inside. Selectors that come out invalid are
 * dropped by the caller (style-scan.ts), which tries each in the browser.
 */

/** A selector list split at its top-level commas (not those inside `:is(…)`, `[…]` or strings). */
export function splitSelectorList(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '\\') i++;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out.filter(Boolean);
}

/**
 * Where the last compound selector (the subject) starts: after the last combinator (space, `>`,
 * `+`, `~`) outside brackets, parentheses and strings.
 */
function subjectStart(selector: string): number {
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '\\') i++;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === ' ' || c === '>' || c === '+' || c === '~' || c === '\t' || c === '\n')) start = i + 1;
  }
  return start;
}

/**
 * Pseudo-classes of the user's action (a rule with them applies while the pointer rests or the
 * focus is there: the element is the same one) and pseudo-elements (a part of the element).
 */
const ACTION_PSEUDO = /::?(?:hover|active|focus-visible|focus-within|focus|visited|before|after|marker|placeholder|selection|first-line|first-letter)(?![\w-])/gi;
/** One of them where a compound starts: the compound would be empty without it. */
const LONE_PSEUDO = /(?:^|[\s>+~(,])::?(?:hover|active|focus-visible|focus-within|focus|visited|before|after|marker|placeholder|selection|first-line|first-letter)(?![\w-])/i;
/** Any of them inside parentheses (`:not(:hover)`): stripping would change what the selector means. */
const PSEUDO_IN_PARENS = /\([^)]*::?(?:hover|active|focus|visited|before|after)/i;

function stripActions(selector: string): string | undefined {
  if (LONE_PSEUDO.test(selector) || PSEUDO_IN_PARENS.test(selector)) return undefined;
  const stripped = selector.replace(ACTION_PSEUDO, '').trim();
  return stripped || undefined;
}

/** Subjects that are controls, labels or options already, or everything at once: a cursor there says nothing new. */
const KNOWN_SUBJECT_TAGS = new Set(['a', 'area', 'button', 'input', 'select', 'textarea', 'label', 'option', 'optgroup', 'summary', 'html', 'body', ':root']);

/**
 * The selector of the elements a cursor rule is about, without the action pseudo-classes
 * (`.row:hover` → `.row`), or undefined when the subject is a native control, a label, an option,
 * an element with a role, html, body or anything (`*`).
 */
export function cursorSubject(selector: string): string | undefined {
  const stripped = stripActions(selector);
  if (!stripped) return undefined;
  const subject = stripped.slice(subjectStart(stripped));
  const tag = /^(?:[\w-]+\|)?([a-zA-Z][\w-]*|\*|:root)/.exec(subject)?.[1]?.toLowerCase();
  if (tag !== undefined && (tag === '*' || KNOWN_SUBJECT_TAGS.has(tag))) return undefined;
  // A subject of pseudo-classes only (`:not(.x)`, `:where(…)`) matches nearly everything.
  if (subject === '' || (subject.startsWith(':') && !/[.#[]/.test(subject.replace(/\([^)]*\)/g, '')))) return undefined;
  if (/\[\s*(?:role|href)\b/i.test(subject)) return undefined;
  return stripped;
}

/** A `:hover` rule that shows something inside the hovered element: that element's selector, and where what it shows is, relative to it. */
export interface HoverReveal {
  target: string;
  /** `:scope > ul`, `:scope .submenu` (for `querySelector` on the target). */
  shown: string;
}

/**
 * `.menu:hover .sub` → `.menu` shows `:scope .sub`; `nav li:hover > ul` → `nav li` shows
 * `:scope > ul`. Undefined when `:hover` is on the subject itself (the element restyles only
 * itself), inside parentheses, or absent.
 */
export function hoverReveal(selector: string): HoverReveal | undefined {
  if (PSEUDO_IN_PARENS.test(selector) || LONE_PSEUDO.test(selector)) return undefined;
  const at = selector.search(/:hover(?![\w-])/i);
  if (at < 0) return undefined;
  // The compound holding :hover ends at the next combinator outside brackets and parentheses.
  let depth = 0;
  let end = selector.length;
  for (let i = at; i < selector.length; i++) {
    const c = selector[i]!;
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === ' ' || c === '>' || c === '+' || c === '~' || c === '\t' || c === '\n')) {
      end = i;
      break;
    }
  }
  const rest = selector.slice(end).trim();
  // Only what lies inside the hovered element counts (siblings `+ .x`, `~ .x` are outside it).
  if (!rest || rest.startsWith('+') || rest.startsWith('~')) return undefined;
  const target = stripActions(selector.slice(0, end));
  const shown = stripActions(rest);
  if (!target || !shown) return undefined;
  const subject = target.slice(subjectStart(target));
  if (/^(?:\*|html|body|:root)?$/i.test(subject)) return undefined;
  return { target, shown: `:scope ${shown}`.replace(/\s+/g, ' ') };
}

/**
 * The cursor an inline `style` attribute sets: a click, a drag, `other` (it overrides any rule
 * with one that says neither), or undefined when it sets none.
 */
export function inlineCursor(style: string | null): 'pointer' | 'grab' | 'other' | undefined {
  if (style === null) return undefined;
  const m = /(?:^|;)\s*cursor\s*:\s*([^;]+)/i.exec(style);
  if (!m) return undefined;
  return cursorKind(m[1]!) ?? 'other';
}

/** What a `cursor` value says: a click, a drag, or nothing. */
export function cursorKind(value: string): 'pointer' | 'grab' | undefined {
  const v = value.trim().toLowerCase();
  // `url(hand.cur), pointer`: the keyword is the fallback at the end.
  const keyword = v
    .slice(v.lastIndexOf(',') + 1)
    .trim()
    .replace(/\s*!important$/, '');
  if (keyword === 'pointer') return 'pointer';
  if (keyword === 'grab' || keyword === 'grabbing' || keyword === 'move') return 'grab';
  return undefined;
}
