import { ShapeKind } from '../../../src/protocol/element.ts';
import type { ShapeSeen, View, ViewNode } from './view.ts';

/**
 * Steward's look as an MCP client reads it: the text of a steward_observe answer, parsed back
 * into nodes (pure). Only the text is read, as a client's model would: the state_version line,
 * the frame (`<data>…</data>`) with the page's lines (render/format.ts, render.ts): `e7 button~ "Save" !` controls
 * with their marks (on a line of several, `e8 "Load"` has the role of the control before it), quoted texts, `# "…"` headings, containers (`list e3: … · …`, a title and its
 * `- …` or `row N: …` lines), popups under their opener (`↳ menu c3 (from e13): …`), runs of
 * controls not usable now (`covered by dialog "Cookies" e9: …`), `shapes: …` and canvases.
 */

export interface StewardLook {
  view: View;
  /** The resource the first line names (`page localhost:4100/x`, `order "0,1"`), for steward_execute. */
  resource?: { type: string; id: string };
  /** The `state_version fp-…` line above the frame, when there is one. */
  stateVersion?: string;
}

const FRAME_OPEN = '<data>';
const FRAME_CLOSE = '</data>';
const REF = /^[a-z]{1,3}\d+$/;
/** The kinds the observation gives shapes (`e9 circle red large`); `group` is also a role, and stays one. */
const SHAPE_KINDS = new Set<string>(ShapeKind.options.filter((k) => k !== 'group' && k !== 'text'));
const SIZES = new Set(['small', 'medium', 'large']);
const STATE_WORDS = new Set(['disabled', 'checked', 'mixed', 'expanded', 'collapsed', 'selected', 'pressed', 'required', 'readonly', 'invalid', 'focused', 'busy', 'editable']);

/** A reader over one line: JSON strings, bare words, brackets that may hold strings. */
class Scanner {
  pos = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(n = 1): string {
    return this.text.slice(this.pos, this.pos + n);
  }

  spaces(): void {
    while (this.text[this.pos] === ' ') this.pos++;
  }

  /** A JSON string starting here (the rendering quotes all page text with JSON.stringify). */
  quoted(): string | undefined {
    if (this.text[this.pos] !== '"') return undefined;
    let i = this.pos + 1;
    while (i < this.text.length && this.text[i] !== '"') i += this.text[i] === '\\' ? 2 : 1;
    const raw = this.text.slice(this.pos, i + 1);
    this.pos = i + 1;
    try {
      return JSON.parse(raw) as string;
    } catch {
      return raw.slice(1, -1);
    }
  }

  /** Up to the next space (outside strings). */
  word(): string {
    const start = this.pos;
    while (this.pos < this.text.length && this.text[this.pos] !== ' ') this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** A bracketed run (`[…]`, `(…)`) with strings inside kept whole; returns its inside. */
  bracket(open: string, close: string): string {
    if (this.text[this.pos] !== open) return '';
    let depth = 0;
    const start = this.pos;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === '"') {
        this.quoted();
        continue;
      }
      if (c === open) depth++;
      if (c === close && --depth === 0) break;
      this.pos++;
    }
    this.pos++;
    return this.text.slice(start + 1, this.pos - 1);
  }

  /** A word or a JSON string, whichever comes. */
  token(): string {
    return this.peek() === '"' ? (this.quoted() ?? '') : this.word();
  }
}

/** Splits a row on ` · ` outside strings. */
export function splitItems(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      continue;
    }
    if (text.startsWith(' · ', i)) {
      out.push(text.slice(start, i));
      start = i + 3;
      i += 2;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

type NodeSeen = Omit<ViewNode, 'index' | 'row'>;

/** What a control without a role word takes: the role (and `~`) of the control before it on the line. */
interface RoleCarry {
  role?: string;
  inferred?: boolean;
}

/** Right after a ref, a role word is a bare word (or a quoted hostile one) followed by more; none when a name, mark or bracket comes first. */
const NO_ROLE_NEXT = new Set(['"', '!', '$', '*', '[', '(', '=', '→', '—', '']);

/**
 * `e7 button~ "Save"* circle red large !press type=date ="…" [0–100, checked] (covered by …) → /x options: … — "…"`;
 * `e8 "Load"` (no role word) has the role of the control before it on the line (`carry`).
 */
export function parseElement(fragment: string, carry: RoleCarry = {}): NodeSeen | undefined {
  const s = new Scanner(fragment.trim());
  const ref = s.word();
  if (!REF.test(ref)) return undefined;
  s.spaces();
  // A shape's kind after the ref of a control whose role is carried (`e2 square blue` after `e1 button~ circle red`) is its kind, not a role.
  const kindAfterCarry = carry.role !== undefined && carry.role !== '' && !SHAPE_KINDS.has(carry.role) && SHAPE_KINDS.has(s.text.slice(s.pos).split(' ')[0]!);
  const said = !kindAfterCarry && !NO_ROLE_NEXT.has(s.peek()) && !s.text.startsWith('options:', s.pos) && !s.text.startsWith('other options:', s.pos);
  let role = said ? s.token() : (carry.role ?? '');
  const inferred = said ? role.endsWith('~') : (carry.inferred ?? false);
  if (said && inferred) role = role.slice(0, -1);
  carry.role = role;
  carry.inferred = inferred;
  const node: NodeSeen = { role, name: '', states: [], control: true, ref, ...(inferred ? { inferred } : {}) };
  const shapeWords: string[] = [];
  let named = false;
  while (!s.done) {
    s.spaces();
    const c = s.peek();
    if (c === '') break;
    if (c === '"' && !named && shapeWords.length === 0) {
      node.name = s.quoted() ?? '';
      named = true;
    } else if (c === '*') s.pos++;
    else if (c === '!' || c === '$') s.word();
    else if (c === '=') {
      s.pos++;
      s.spaces();
      node.value = s.token();
    } else if (c === '[') {
      // States, after a slider's bounds when it has them (`[0–100 step 5, focused]`).
      const inside = s.bracket('[', ']');
      node.states.push(...inside.split(', ').filter((p) => STATE_WORDS.has(p)));
    } else if (c === '(') node.unusable = s.bracket('(', ')');
    else if (c === '→') {
      s.pos++;
      s.spaces();
      s.word();
    } else if (c === '—') break;
    else if (fragment.startsWith('options:', s.pos) || fragment.startsWith('other options:', s.pos)) break;
    else if (c === '"') s.quoted();
    else {
      const w = s.word();
      if (!w.startsWith('type=')) shapeWords.push(w);
    }
  }
  const shape = shapeOf(role, shapeWords);
  if (shape) node.shape = shape;
  return node;
}

/** `circle red large`, `rect blue outline black small`: the kind (or the role when it says it), fill, outline, size. */
function shapeOf(role: string, words: string[]): ShapeSeen | undefined {
  let kind = SHAPE_KINDS.has(role) ? role : undefined;
  const shape: Partial<ShapeSeen> = {};
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (kind === undefined && SHAPE_KINDS.has(w)) kind = w;
    else if (w === 'outline' && words[i + 1]) shape.stroke = words[++i]!;
    else if (SIZES.has(w)) shape.size = w;
    else if (shape.fill === undefined) shape.fill = w;
  }
  return kind ? { kind, ...shape } : undefined;
}

/** A quoted text, or an element, as a row item (`carry`: the line's last role, see parseElement). */
function item(fragment: string, carry: RoleCarry): NodeSeen | undefined {
  if (fragment.startsWith('"')) {
    const s = new Scanner(fragment);
    return { role: 'text', name: s.quoted() ?? '', states: [], control: false };
  }
  return parseElement(fragment, carry);
}

/** A line's ` · `-separated items, each control without a role word taking the one before it. */
function items(text: string): NodeSeen[] {
  const carry: RoleCarry = {};
  return splitItems(text).flatMap((f) => item(f, carry) ?? []);
}

/**
 * `list "Name" (from e2): a · b`, `list e3 — 12 rows` (the ref when rows are left out), or a
 * table's title (`table — columns: "A" | "B"`, `table e9 — 40 rows; columns: …`, its rows below).
 */
const CONTAINER = /^([\p{L}][\w-]*|"(?:[^"\\]|\\.)*")(?: ([a-z]{1,3}\d+))?(?: "(?:[^"\\]|\\.)*")?(?: \(from [a-z]{1,3}\d+\))?(?: — (?:\d+ rows(?:; columns: .*)?|columns: .*))?(?:: (.*))?$/u;
/** First lines that are the page's, not a resource: runs, shapes, canvases, counts, the site's lines. */
const BODY_LINE = /^(?:canvas |covered by |offscreen|zero size|hidden|shapes:|Actions:|Tools:|Facts |Data:|Blind spots:|\d|…)/;
const NOT_USABLE = /^((?:covered|offscreen|zero size|hidden)(?: by .*?)?): ([a-z]{1,3}\d+ .*)$/;

/** The resource line (`page localhost:4100/x`, `order "0,1,2,3" unknown (.23)`), when the first line is one. */
function resourceOf(line: string): StewardLook['resource'] {
  if (/^["#[]|^[a-z]{1,3}\d+ /.test(line) || BODY_LINE.test(line) || CONTAINER.test(line)) return undefined;
  const s = new Scanner(line);
  const type = s.token();
  s.spaces();
  const id = s.token();
  return type && id ? { type, id } : undefined;
}

/**
 * Where a control's line gives way to its own items (`: ` outside strings and brackets, not a
 * select's `options: `), when the line starts with a ref and has one.
 */
function ownItemsAt(line: string): number | undefined {
  if (!/^[a-z]{1,3}\d+ /.test(line)) return undefined;
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') {
      i++;
      while (i < line.length && line[i] !== '"') i += line[i] === '\\' ? 2 : 1;
      continue;
    }
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (depth === 0 && line.startsWith(' · ', i)) return undefined;
    else if (depth === 0 && line.startsWith(': ', i) && !/options$/.test(line.slice(0, i))) return i;
  }
  return undefined;
}

export function parseStewardLook(text: string): StewardLook {
  const open = text.indexOf(FRAME_OPEN);
  const close = text.lastIndexOf(FRAME_CLOSE);
  const before = open >= 0 ? text.slice(0, open) : '';
  const page = open >= 0 ? text.slice(open + FRAME_OPEN.length, close > open ? close : undefined) : text;
  const stateVersion = /^state_version (\S+)$/m.exec(before)?.[1];
  const lines = page.split('\n').filter((l) => l.trim() !== '');
  const nodes: ViewNode[] = [];
  const blindSpots: string[] = [];
  let row = 0;
  const push = (p: NodeSeen, rowId: number, unusable?: string) => {
    nodes.push({ ...p, ...(unusable && !p.unusable ? { unusable } : {}), index: nodes.length, row: rowId });
  };
  const resource = lines[0] ? resourceOf(lines[0]) : undefined;
  for (const [i, raw] of lines.entries()) {
    if (i === 0 && resource) continue;
    let line = raw.trim().replace(/^↳ /, '');
    row++;
    const heading = /^(#{1,6}) ("(?:[^"\\]|\\.)*")(?: \(([a-z]{1,3}\d+)\))?$/.exec(line);
    if (heading) {
      push({ role: 'heading', name: JSON.parse(heading[2]!) as string, states: [], control: false, ...(heading[3] ? { ref: heading[3] } : {}) }, row);
      continue;
    }
    const status = /^\[(status|alert|log|timer)\] (".*")$/.exec(line);
    if (status) {
      push({ role: 'text', name: new Scanner(status[2]!).quoted() ?? '', states: [], control: false }, row);
      continue;
    }
    if (line.startsWith('canvas ')) {
      blindSpots.push(line);
      continue;
    }
    if (line.startsWith('shapes: ')) {
      for (const p of items(line.slice('shapes: '.length))) push(p, row);
      continue;
    }
    if (/^… \d+ more /.test(line) || /controls? not listed$/.test(line) || /^\d+ hidden controls?$/.test(line) || line.startsWith('Blind spots:')) {
      blindSpots.push(line);
      continue;
    }
    if (/^(Facts|Data|Actions|Tools)\b/.test(line)) continue;
    const notUsable = NOT_USABLE.exec(line);
    if (notUsable) {
      for (const p of items(notUsable[2]!)) push(p, row, notUsable[1]);
      continue;
    }
    // A container's own lines: `- a · b`, `row 3: a · b`, `header: a`.
    const inner = /^(?:- |row \d+: |header: )(.*)$/.exec(line);
    if (inner) line = inner[1]!;
    // A quoted line is the page's text (a container's role is a bare word; a quoted one is a hostile name, read as text); a line starting with a ref is a control's.
    else if (!line.startsWith('"') && !/^[a-z]{1,3}\d+ /.test(line)) {
      const container = CONTAINER.exec(line);
      if (container) {
        if (container[3] !== undefined) for (const p of items(container[3])) push(p, row);
        continue;
      }
    }
    // A control that is its own list (`e1 listbox "Size" [focused]: e2 option "S" · e3 "M"`): the control, then its items.
    const titled = ownItemsAt(line);
    if (titled !== undefined) {
      const self = parseElement(line.slice(0, titled));
      if (self) push(self, row);
      for (const p of items(line.slice(titled + 2))) push(p, row);
      continue;
    }
    for (const p of items(line)) push(p, row);
  }
  return { view: { nodes, blindSpots }, ...(resource ? { resource } : {}), ...(stateVersion ? { stateVersion } : {}) };
}
