import { nameMatch } from './names.ts';
import type { View, ViewNode } from './view.ts';

/**
 * Playwright's `ariaSnapshot()` as the anchor agent reads it (pure): the YAML-like tree
 * (`- button "Save"`, `- slider "Volume": "50"`, `- listitem: Book dentist`, `- text: …`) parsed
 * into the same nodes as Steward's look. Controls are the interactive roles; every other line
 * with words becomes a text (a person can still click a text, and the anchor acts on it with
 * `getByText`). Each node remembers which match of its role and name it is (`nth`), so the anchor
 * can act on exactly the one it read.
 */

/** Roles a person operates; the rest are structure or text. */
const INTERACTIVE_ROLES = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'slider',
  'spinbutton',
  'treeitem',
  'gridcell',
  'scrollbar',
]);
/** Controls whose inline text is their value (`- spinbutton "Guests": "2"`). */
const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);
/** Containers whose content is one row (the icon in the row that says X). */
const ROW_ROLES = new Set(['listitem', 'row', 'treeitem', 'option', 'menuitem', 'article']);

interface Key {
  role: string;
  name: string;
  attrs: Record<string, string>;
}

/** `'button "a: b" [checked]'` or `button "Save" [level=1]` → role, name, attributes. */
export function parseKey(raw: string): Key | undefined {
  let text = raw.trim();
  if (text.startsWith("'") && text.endsWith("'")) text = text.slice(1, -1).replace(/''/g, "'");
  const role = /^[a-zA-Z]+/.exec(text)?.[0];
  if (!role) return undefined;
  let i = role.length;
  while (text[i] === ' ') i++;
  let name = '';
  if (text[i] === '"') {
    let j = i + 1;
    let out = '';
    while (j < text.length && text[j] !== '"') {
      if (text[j] === '\\') j++;
      out += text[j] ?? '';
      j++;
    }
    name = out.replace(/\s+/g, ' ').trim();
    i = j + 1;
  }
  const attrs: Record<string, string> = {};
  for (const m of text.slice(i).matchAll(/\[([a-z]+)(?:=([^\]\s]+))?\]/g)) attrs[m[1]!] = m[2] ?? 'true';
  return { role, name, attrs };
}

/** A YAML scalar as the snapshot writes it: bare, or double-quoted with escapes. */
function scalar(raw: string): string {
  const t = raw.trim();
  if (t.startsWith('"') && t.endsWith('"')) {
    try {
      return JSON.parse(t.replace(/\\x([0-9a-f]{2})/gi, '\\u00$1')) as string;
    } catch {
      return t.slice(1, -1);
    }
  }
  return t;
}

/** Splits `key: value` at the first `: ` outside the key's quotes. */
function splitEntry(body: string): { key: string; value?: string; opens: boolean } {
  let quote: string | undefined;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || (c === "'" && i === 0)) quote = c;
    else if (c === ':' && (body[i + 1] === ' ' || i === body.length - 1)) {
      const value = body.slice(i + 1).trim();
      return value === '' ? { key: body.slice(0, i), opens: true } : { key: body.slice(0, i), value, opens: false };
    }
  }
  return { key: body, opens: false };
}

function statesOf(attrs: Record<string, string>): string[] {
  const states: string[] = [];
  for (const s of ['checked', 'selected', 'pressed', 'disabled', 'expanded'] as const) if (attrs[s] === 'true') states.push(s);
  if (attrs.checked === 'mixed') states.push('mixed');
  if (attrs.expanded === 'false') states.push('collapsed');
  return states;
}

export function parseAriaSnapshot(yaml: string): View {
  const nodes: ViewNode[] = [];
  /** Open rows by indent: the row id nodes under them share. */
  const rows: Array<{ indent: number; row: number }> = [];
  let nextRow = 0;
  for (const line of yaml.split('\n')) {
    const m = /^(\s*)- (.*)$/.exec(line);
    if (!m) continue;
    const indent = m[1]!.length;
    while (rows.length > 0 && rows[rows.length - 1]!.indent >= indent) rows.pop();
    const { key, value, opens } = splitEntry(m[2]!);
    if (key.startsWith('/')) continue; // /url, /placeholder: properties of the node above
    const row = rows.length > 0 ? rows[rows.length - 1]!.row : ++nextRow;
    const push = (n: Omit<ViewNode, 'index' | 'row'>) => nodes.push({ ...n, index: nodes.length, row });
    if (key === 'text') {
      if (value !== undefined) push({ role: 'text', name: scalar(value), states: [], control: false });
      continue;
    }
    const k = parseKey(key);
    if (!k) continue;
    const content = value !== undefined ? scalar(value) : undefined;
    if (ROW_ROLES.has(k.role)) rows.push({ indent, row: ++nextRow });
    const rowNow = ROW_ROLES.has(k.role) ? nextRow : row;
    const states = statesOf(k.attrs);
    if (INTERACTIVE_ROLES.has(k.role)) {
      const isValue = VALUE_ROLES.has(k.role);
      nodes.push({
        role: k.role,
        name: k.name || (isValue ? '' : (content ?? '')),
        ...(isValue && content !== undefined ? { value: content } : {}),
        states,
        control: true,
        index: nodes.length,
        row: rowNow,
      });
      continue;
    }
    if (k.role === 'heading') {
      nodes.push({ role: 'heading', name: k.name || content || '', states, control: false, index: nodes.length, row: rowNow });
      continue;
    }
    // Structure (paragraph, listitem, cell, img…): its inline text is a text a person reads (a
    // name over children only repeats theirs: `row "1 2 3"`); an unnamed graphic is kept so a
    // view that shows only `- img` says so.
    const text = content ?? (opens ? undefined : k.name || undefined);
    if (text !== undefined) nodes.push({ role: 'text', name: text, states, control: false, index: nodes.length, row: rowNow });
    else if (k.role === 'img') nodes.push({ role: 'img', name: '', states, control: false, index: nodes.length, row: rowNow });
  }
  numberMatches(nodes);
  return { nodes, blindSpots: [] };
}

/**
 * `nth` for each node: the how-manieth control of the same role and name (of the same role, for
 * one without a name, as `getByRole(role)` counts), or text saying the same, so the locator lands
 * on the one read.
 */
function numberMatches(nodes: ViewNode[]): void {
  const seen = new Map<string, number>();
  const next = (key: string) => {
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    return k;
  };
  for (const n of nodes) {
    const byRole = next(`role\u0000${n.role}`);
    const byName = next(`name\u0000${n.role}\u0000${n.name}`);
    n.nth = n.control && n.name === '' ? byRole : byName;
  }
}

/** Of the texts before `node`, how many say `phrase` (so `getByText(phrase).nth(k)` is the one meant). */
export function phraseIndex(view: View, node: ViewNode, phrase: string): number {
  return view.nodes.filter((n) => n.index < node.index && !n.control && nameMatch(phrase, n.name) > 0).length;
}
