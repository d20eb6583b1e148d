import type { Fact } from '../../protocol/observed-state.ts';
import type { ToolDescriptor } from '../../protocol/webmcp.ts';
import type { CoveredBy, RangeBounds, ShapeInfo } from '../../protocol/element.ts';
import type { PageSnapshot, SnapshotCanvas, SnapshotElement, SnapshotForm, SnapshotText } from '../../protocol/snapshot.ts';
import type { Item } from './items.ts';
import { schemaParams } from './marks.ts';
import { quote, word } from './page-words.ts';

/** One-line formats for everything the rendering shows (pure). Page text is always quoted. */

export interface LineDetail {
  /** Longest name / text shown (characters). */
  maxText: number;
  /** Show hrefs, options and descriptions. */
  rich: boolean;
  /** Most options listed for a select (`expand(ref)` lists all). */
  maxOptions?: number;
}

export const FULL_DETAIL: LineDetail = { maxText: 400, rich: true };

/** Input types the role already says everything about. */
const PLAIN_INPUTS = new Set(['text', 'search', 'checkbox', 'radio', 'submit', 'button', 'reset', 'range', 'number', 'image']);
/** Roles that are editable by definition: `editable` on them says nothing. */
const TEXT_ENTRY_ROLES = new Set(['textbox', 'searchbox', 'spinbutton']);

/**
 * Where a link goes as the rendering shows it: the path of a same-origin URL, else the URL itself;
 * nothing for a link to the page itself (`#`), only the fragment for one within it.
 */
function shortHref(href: string, pageUrl: string): string | undefined {
  try {
    const u = new URL(href);
    const page = new URL(pageUrl);
    if (u.origin !== page.origin) return href;
    if (u.pathname === page.pathname && u.search === page.search) return u.hash.length > 1 ? u.hash : undefined;
    return `${u.pathname}${u.search}${u.hash}`;
  } catch {
    return href;
  }
}

/** A fragment that names a spot in the page (`#section`), not a route (`#/path`, `#!/path`). */
const IN_PAGE_ANCHOR = /^#[^/!]/;

/** Where a form posts: like a link's target, but the page's own path when it posts to itself. */
function formTarget(action: string, pageUrl: string): string {
  const short = shortHref(action, pageUrl);
  if (short && !short.startsWith('#')) return short;
  try {
    return new URL(action).pathname;
  } catch {
    return action;
  }
}

/** Roles a shape's own kind says better (`e9 circle red large`, not `e9 graphics-symbol …`). */
const SHAPE_ROLES = new Set(['graphics-symbol', 'graphics-object', 'graphics-document', 'img', 'image', 'none', 'presentation', 'generic', 'group']);

/** `circle red outline black large`: kind (when the role does not say it), fill, outline, size. */
function shapeWords(shape: ShapeInfo, kindShown: boolean): string {
  const parts: string[] = kindShown ? [] : [shape.kind];
  if (shape.fill) parts.push(word(shape.fill, 32));
  if (shape.stroke && shape.stroke !== shape.fill) parts.push(`outline ${word(shape.stroke, 32)}`);
  if (shape.size) parts.push(shape.size);
  return parts.join(' ');
}

/** `0–100`, `0–100 step 5`, `min 1`: a slider's or spinbutton's bounds (the line brackets them with its states). */
function rangeWords(r: RangeBounds): string {
  const bounds = r.min !== undefined && r.max !== undefined ? `${r.min}–${r.max}` : r.min !== undefined ? `min ${r.min}` : r.max !== undefined ? `max ${r.max}` : '';
  const step = r.step !== undefined ? `step ${r.step}` : '';
  return [bounds, step].filter(Boolean).join(' ');
}

/** A value that is one plain token (a number, a date, a word) needs no quotes; any other is quoted as page text. */
const PLAIN_VALUE = /^[\p{L}\p{N}][\p{L}\p{N}.:/-]*$/u;
/** A value that reads like a ref (`e12`) is quoted, so it is never taken for one. */
const REF_LIKE = /^[a-z]{1,3}\d+$/;
function valueWords(value: string, max: number): string {
  return PLAIN_VALUE.test(value) && !REF_LIKE.test(value) && value.length <= max ? value : quote(value, max);
}

/**
 * `covered by dialog "Cookie consent" e8`: what lies on top, and its ref to dismiss it first;
 * `byRef`: `covered by dialog e8`, when e8 has a line of its own that names it.
 */
export function coveredWords(c: CoveredBy, byRef = false): string {
  return `covered by ${word(c.role, 40)}${byRef && c.ref ? '' : ` ${quote(c.name, 60)}`}${c.ref ? ` ${c.ref}` : ''}`;
}

export interface ElementLineOptions {
  /** False when the caller says it once for a run of elements. */
  showVisibility?: boolean;
  /** What taking a step on it needs (` !` approval, ` $` payment), from the observation's actions. */
  mark?: string;
  /** False when the control before it on the same line has the same role and `~` (a line's items are read that way). */
  showRole?: boolean;
  /** The cover has a line of its own: named by its role and ref only. */
  coverByRef?: boolean;
}

/**
 * Roles whose keys do only what a click does (Enter, Space): their focus is what the last click
 * left behind and tells an agent nothing; a field's, a slider's, a list's focus says where keys go.
 */
const CLICK_ONLY_ROLES: ReadonlySet<string> = new Set(['button', 'link', 'checkbox', 'switch']);

/** States a role says already: a tab's `expanded`/`collapsed` repeats whether it is `selected` (jQuery UI sets both). */
const IMPLIED_STATES: Readonly<Record<string, ReadonlySet<string>>> = { tab: new Set(['expanded', 'collapsed']) };

/**
 * The role as a line shows it, with `~` when Steward inferred it: what two controls on one line
 * compare to leave the second's out. None for a shape its kind stands for (`e9 circle red`).
 */
function roleWord(e: SnapshotElement): string | undefined {
  if (e.shape !== undefined && (SHAPE_ROLES.has(e.role) || e.role === e.shape.kind)) return undefined;
  return `${word(e.role, 40)}${e.inferred ? '~' : ''}`;
}

/**
 * Controls on one line (` · `-joined): each after the first leaves out a role (and `~`) that is
 * the one of the control before it (`e5 link "1" · e6 "2" · e7 "3"`, `e1 button~ circle red ·
 * e2 square blue`), as a list of tabs or options or a row of day cells reads; a shape whose kind
 * stands for its role always shows it.
 */
export function joinedElements(els: readonly SnapshotElement[], line: (e: SnapshotElement, showRole: boolean) => string): string {
  let prev: string | undefined;
  return els
    .map((e) => {
      const role = roleWord(e);
      const out = line(e, role === undefined || role !== prev);
      prev = role;
      return out;
    })
    .join(' · ');
}

/**
 * `e7 textbox "Date"* ! type=date ="…" [states] (visibility) …`; `*` marks a required field, `~`
 * a role Steward inferred from the page's behaviour, `!`/`$` what a step on it needs.
 */
export function elementLine(e: SnapshotElement, pageUrl: string, d: LineDetail, options: ElementLineOptions = {}): string {
  const kindShown = e.shape !== undefined && (SHAPE_ROLES.has(e.role) || e.role === e.shape.kind);
  let line = options.showRole === false ? e.ref : `${e.ref} ${kindShown ? e.shape!.kind : word(e.role, 40)}${e.inferred ? '~' : ''}`;
  const value = e.value !== undefined && e.value !== '' ? e.value : undefined;
  // A name that is the value itself (a field named by what it holds, a select by its choice) is said once, as the value.
  if (e.name && e.name.trim() !== value?.trim()) line += ` ${quote(e.name, d.maxText)}`;
  if (e.states.includes('required')) line += '*';
  if (e.shape) {
    const shape = shapeWords(e.shape, kindShown);
    if (shape) line += ` ${shape}`;
  }
  line += options.mark ?? '';
  if (e.inputType && !PLAIN_INPUTS.has(e.inputType)) line += ` type=${word(e.inputType, 40)}`;
  // `=50`, not `= 50`: a space before a number is a token of its own.
  if (value !== undefined) line += ` =${valueWords(value, Math.min(d.maxText, 120))}`;
  const otherOptions = e.options?.filter((o) => o !== e.value);
  const states = e.states.filter(
    (x) => x !== 'required' && !(x === 'editable' && TEXT_ENTRY_ROLES.has(e.role)) && !IMPLIED_STATES[e.role]?.has(x) && !(x === 'focused' && CLICK_ONLY_ROLES.has(e.role)),
  );
  // Bounds and states share one bracket: `[0–100 step 5, focused]`.
  const bracket = [...(e.range ? [rangeWords(e.range)] : []), ...states].filter(Boolean);
  if (bracket.length > 0) line += ` [${bracket.join(', ')}]`;
  if (e.visibility !== 'visible' && options.showVisibility !== false)
    line += ` (${e.coveredBy && e.visibility === 'covered' ? coveredWords(e.coveredBy, options.coverByRef) : e.visibility.replace('_', ' ')})`;
  if (d.rich) {
    const to = e.href && !e.href.startsWith('javascript:') ? shortHref(e.href, pageUrl) : undefined;
    // An anchor in the page itself (a tab's `#t-items`, `#nested`) goes nowhere; a hash route (`#/settings`) does.
    if (to && !IN_PAGE_ANCHOR.test(to)) line += ` → ${to.slice(0, 120)}`;
    // The chosen option is the value already shown.
    if (otherOptions && otherOptions.length > 0 && e.options!.length <= 12) {
      const shown = otherOptions.slice(0, d.maxOptions ?? 12).map((o) => quote(o, 40));
      if (shown.length < otherOptions.length) shown.push(`… ${otherOptions.length - shown.length} more`);
      line += ` ${otherOptions.length < e.options!.length ? 'other options' : 'options'}: ${shown.join(' | ')}`;
    }
    if (e.description && e.description !== e.name) line += ` — ${quote(e.description, d.maxText)}`;
  }
  return line;
}

/** `showRef`: whether a heading's ref is worth printing (something else points at it). */
export function textLine(t: SnapshotText, d: LineDetail, showRef = true): string {
  const text = quote(t.text, d.maxText);
  if (t.role === 'heading') return `${'#'.repeat(Math.min(t.level ?? 2, 6))} ${text}${t.ref && showRef ? ` (${t.ref})` : ''}`;
  if (t.role === 'status' || t.role === 'alert' || t.role === 'log' || t.role === 'timer') return `[${t.role}] ${text}`;
  return text;
}

/** Items of one row, on one line: texts as quotes, elements as `ref role "name"` with their `mark`. */
/** The role shown last on a line, carried from row to row when several rows share one line. */
export interface LineCarry {
  role?: string | undefined;
}

/** `nestedNames`: names of controls anywhere on the page, which a row's text may hold after its own control's (see withoutEchoes). */
export function rowLine(
  items: Item[],
  pageUrl: string,
  d: LineDetail,
  options: (e: SnapshotElement) => ElementLineOptions = () => ({}),
  carry: LineCarry = {},
  nestedNames: readonly string[] = [],
): string {
  return withoutEchoes(items, nestedNames)
    .map((i) => {
      if (i.kind === 'text') return quote(i.text.text, Math.min(d.maxText, 80));
      // The role of the control before it on the line, texts between or not (see joinedElements).
      const role = roleWord(i.el);
      const out = elementLine(i.el, pageUrl, d, { ...options(i.el), showRole: role === undefined || role !== carry.role });
      carry.role = role;
      return out;
    })
    .join(' · ');
}

export const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * Drops a row's texts that only repeat its controls: a cell whose text is a control's name (a
 * link's own text) or its controls' names one after another (a label and its button: "Quantity
 * of Mug Update"), or whose words are each the first word of a control's name (a cell holding
 * "Edit" and "Remove USR-1" buttons reads "Edit Remove"), or a control's value (a quantity shown
 * beside the field that holds it). "Mug" beside "Quantity of Mug" stays. So does a text that
 * starts with one of the row's controls' names and goes on with names of controls elsewhere
 * (`nestedNames`): a tree item's block holds the text of its branch ("Documents Invoices
 * lease.pdf" beside the "Documents" item), hidden or listed under it, each said by its own line.
 */
function withoutEchoes(items: Item[], nestedNames: readonly string[] = []): Item[] {
  const names: string[][] = [];
  const nested = nestedNames.map(words).filter((w) => w.length > 0);
  const firstWords = new Set<string>();
  const values = new Set(items.flatMap((i) => (i.kind === 'element' && i.el.value ? [i.el.value.trim()] : [])));
  for (const i of items) {
    if (i.kind !== 'element' || !i.el.name) continue;
    const w = words(i.el.name);
    if (w.length > 0) names.push(w);
    if (w[0]) firstWords.add(w[0]);
  }
  if (names.length === 0) return items;
  const kept = items.filter((i) => {
    if (i.kind === 'element') return true;
    if (values.has(i.text.text.trim())) return false;
    const w = words(i.text.text);
    return w.length === 0 || !(madeOfNames(w, names) || w.every((x) => firstWords.has(x)) || holdsNested(w, names, nested));
  });
  return kept.map((i) => (i.kind === 'text' ? withoutNamePrefix(i, items) : i));
}

/** Punctuation and spaces between a name and the rest of a text (`Title · 4 min read`, `Title — by Ann`). */
const JOINER = /^[\s·•|:,;–—-]+/u;
/** Shortest name worth cutting from the head of a text (a one-letter name is a coincidence, not an echo). */
const MIN_PREFIX_CHARS = 4;

/**
 * A row's text that starts with one of its controls' names says only the rest (`"Repairing a
 * bike chain · 4 min read"` beside that link reads `"4 min read"`): the control's line says the name.
 */
function withoutNamePrefix(item: Extract<Item, { kind: 'text' }>, row: readonly Item[]): Item {
  const text = item.text.text.trimStart();
  for (const i of row) {
    if (i.kind !== 'element') continue;
    const name = i.el.name.trim();
    if (name.length < MIN_PREFIX_CHARS || name.length >= text.length || !text.startsWith(name)) continue;
    const next = text.charAt(name.length);
    // Only a whole name: "Cancel" is no prefix of "Cancelled".
    if (/[\p{L}\p{N}]/u.test(next)) continue;
    const rest = text.slice(name.length).replace(JOINER, '');
    if (rest) return { kind: 'text', text: { ...item.text, text: rest } };
  }
  return item;
}

/** Whether `text` is one of the row's `own` names followed by one or more `nested` names (see withoutEchoes). */
function holdsNested(text: string[], own: string[][], nested: string[][]): boolean {
  if (nested.length === 0) return false;
  return own.some((n) => n.length < text.length && n.every((x, k) => text[k] === x) && madeOfNames(text.slice(n.length), nested));
}

/** Whether `text` is one or more of `names` one after another (words compared), by the words each prefix can end at. */
function madeOfNames(text: string[], names: string[][]): boolean {
  if (text.length === 0) return true;
  const reached = new Array<boolean>(text.length + 1).fill(false);
  reached[0] = true;
  for (let at = 0; at < text.length; at++) {
    if (!reached[at]) continue;
    for (const n of names) if (n.length > 0 && at + n.length <= text.length && n.every((x, k) => text[at + k] === x)) reached[at + n.length] = true;
  }
  return reached[text.length]!;
}

export function formLine(f: SnapshotForm, pageUrl: string): string {
  let line = `form ${f.ref}`;
  if (f.name) line += ` ${quote(f.name, 60)}`;
  line += ` ${word((f.method ?? 'get').toUpperCase(), 10)}`;
  if (f.action) line += ` ${formTarget(f.action, pageUrl).slice(0, 120)}`;
  if (f.toolname) line += ` [WebMCP tool ${quote(f.toolname, 80)}]`;
  line += ` — fields: ${f.fieldRefs.length > 0 ? compactRefs(f.fieldRefs) : 'none'}`;
  if (f.submitRef) line += `; submit: ${f.submitRef}`;
  return line;
}

/** `e4, e5, e6, … e90 (40 refs)` for long lists. */
export function compactRefs(refs: string[], show = 8): string {
  if (refs.length <= show) return refs.join(', ');
  return `${refs.slice(0, show - 1).join(', ')}, … ${refs[refs.length - 1]} (${refs.length} refs)`;
}

/** `name=value`, with the sources that saw something else. */
function factValue(f: Fact, maxText: number): string {
  const value = typeof f.value === 'string' ? quote(f.value, maxText) : String(f.value);
  let text = `${word(f.name)}=${value}`;
  if (f.disagreements && f.disagreements.length > 0) {
    text += ` (disagrees: ${f.disagreements.map((d) => `${d.source} says ${quote(String(typeof d.value === 'string' ? d.value : JSON.stringify(d.value)), 60)}`).join(', ')})`;
  }
  return text;
}

/** A confidence as `.89` (`1` for certain): two digits, no leading zero. */
export function shortConfidence(c: number): string {
  const fixed = c.toFixed(2);
  return fixed === '1.00' ? '1' : fixed.replace(/^0/, '');
}

/**
 * Facts with the same provenance on one line: `Facts [sources confidence @ref]: name=value …`, so
 * the provenance is printed once per group instead of once per fact.
 */
export function factLines(facts: Fact[], maxText: number): string[] {
  const groups = new Map<string, Fact[]>();
  for (const f of facts) {
    const key = `Facts [${f.sources.join(' ')} ${shortConfidence(f.confidence)}${f.ref ? ` @${f.ref}` : ''}]:`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  return [...groups].map(([key, group]) => `${key} ${group.map((f) => factValue(f, maxText)).join(' ')}`);
}

/**
 * `canvas e3 (unread pixels) · e4 "Monthly sales chart"`: what each canvas shows, or that
 * Steward cannot tell (a blind spot), on one line.
 */
export function canvasLine(canvases: readonly SnapshotCanvas[]): string {
  const one = (c: SnapshotCanvas) =>
    c.hasTextEquivalent ? `${c.ref} ${quote(c.label ?? '', 120)}${c.unreadable ? ' (pixels unreadable)' : ''}` : `${c.ref} (${c.unreadable ? 'unreadable' : 'unread'} pixels)`;
  return `canvas ${canvases.map(one).join(' · ')}`;
}

/** A tool description's first sentence: what the tool does. The prompt's action list gives the whole description. */
function firstSentence(text: string): string {
  const end = text.search(/[.!?](\s|$)/);
  return end > 0 ? text.slice(0, end + 1) : text;
}

/**
 * `book_appointment(date*, doctor) ! "Book a visit." [form e5]`; `formRef`: the page form that is
 * this tool (a declarative tool); `mark`: whether calling it waits for the person (`!`, `$`), which
 * says what a consequential hint would.
 */
export function toolLine(t: ToolDescriptor, maxText: number, formRef?: string, mark = ''): string {
  const hints: string[] = [];
  if (t.annotations.readOnlyHint) hints.push('read-only');
  if (t.annotations.destructiveHint) hints.push('destructive');
  if (t.annotations.untrustedContentHint) hints.push('untrusted output');
  if (t.kind === 'declarative') hints.push(formRef ? `form ${formRef}` : 'form');
  // The page's text was cut to Chrome's budgets: the agent should know it is not reading all of it.
  if (t.truncated?.description) hints.push('description truncated');
  if (t.truncated?.parameters)
    hints.push(
      `parameter descriptions truncated: ${t.truncated.parameters
        .slice(0, 8)
        .map((p) => word(p, 40))
        .join(', ')}`,
    );
  if (t.longName) hints.push('name over 30 characters');
  let line = `${word(t.name, 120)}(${schemaParams(t.inputSchema)})${mark}`;
  if (t.description) line += ` ${quote(firstSentence(t.description), maxText)}`;
  if (hints.length > 0) line += ` [${hints.join(', ')}]`;
  if (t.schemaError) line += ` [cannot be called: INVALID_TOOL_SCHEMA ${quote(t.schemaError, maxText)}]`;
  return line;
}

export function structuredLine(item: PageSnapshot['structuredData'][number], max: number, pageUrl?: string): string {
  const scalars = Object.entries(item.data)
    .filter(([k, v]) => !k.startsWith('@') && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && v !== pageUrl)
    .map(([k, v]) => `${word(k, 40)}: ${typeof v === 'string' ? quote(v, 60) : String(v)}`)
    .join(', ');
  const text = `${word(item.kind, 40)} ${item.type ? word(item.type, 80) : 'item'}${scalars ? ` {${scalars}}` : ''}`;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
