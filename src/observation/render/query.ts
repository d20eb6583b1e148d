import type { Visibility } from '../../protocol/element.ts';
import type { PageSnapshot, SnapshotElement, SnapshotText } from '../../protocol/snapshot.ts';
import { coveredWords, elementLine, formLine, FULL_DETAIL, rowLine, textLine } from './format.ts';
import { quote, word } from './page-words.ts';
import { blocks, orderedItems, type Item } from './items.ts';

/**
 * Reaching what the compact rendering collapsed (pure): `query` searches every element and text
 * of a snapshot; `expand` shows one ref in full — a container's rows page by page, a form's
 * fields, or one element with its whole row.
 */

export interface SnapshotQuery {
  refs?: string[];
  /** Exact role, e.g. `button`. */
  role?: string;
  /** Case-insensitive substring of the accessible name. */
  name?: string;
  /** Case-insensitive substring of name, value or description, and of text blocks. */
  text?: string;
  visibility?: Visibility;
  /** Only inside this container (a table, list… ref). */
  container?: string;
  offset?: number;
  limit?: number;
}

export interface QueryResult {
  elements: SnapshotElement[];
  texts: SnapshotText[];
  /** Elements that matched before offset/limit. */
  total: number;
  /** Requested refs that are not in the snapshot. */
  missing: string[];
}

const MAX_QUERY_LIMIT = 500;

const has = (haystack: string | undefined, needle: string) => haystack !== undefined && haystack.toLowerCase().includes(needle);

export function query(s: PageSnapshot, q: SnapshotQuery): QueryResult {
  const refs = q.refs ? new Set(q.refs) : undefined;
  const role = q.role?.toLowerCase();
  const name = q.name?.toLowerCase();
  const text = q.text?.toLowerCase();
  const matches = s.elements.filter(
    (e) =>
      (!refs || refs.has(e.ref)) &&
      (!role || e.role.toLowerCase() === role) &&
      (name === undefined || has(e.name, name)) &&
      (text === undefined || has(e.name, text) || has(e.value, text) || has(e.description, text)) &&
      (!q.visibility || e.visibility === q.visibility) &&
      (!q.container || e.container?.ref === q.container),
  );
  const offset = Math.max(0, q.offset ?? 0);
  const limit = Math.min(Math.max(1, q.limit ?? 50), MAX_QUERY_LIMIT);
  const texts = text !== undefined && !refs && !role && name === undefined ? s.texts.filter((t) => has(t.text, text) && (!q.container || t.container?.ref === q.container)).slice(0, limit) : [];
  const found = new Set(s.elements.map((e) => e.ref));
  return {
    elements: matches.slice(offset, offset + limit),
    texts,
    total: matches.length,
    missing: q.refs ? q.refs.filter((r) => !found.has(r)) : [],
  };
}

export interface ExpandOptions {
  /** First row (containers) to show, 0-based among body rows. */
  offset?: number;
  limit?: number;
}

/** A full rendering of one ref, or undefined when the snapshot has nothing by that ref. */
export function expand(s: PageSnapshot, ref: string, options: ExpandOptions = {}): string | undefined {
  const container = s.containers?.find((c) => c.ref === ref);
  if (container || s.elements.some((e) => e.container?.ref === ref) || s.texts.some((t) => t.container?.ref === ref)) {
    return expandContainer(s, ref, options);
  }
  const form = s.forms.find((f) => f.ref === ref);
  if (form) {
    const fields = form.fieldRefs.map((r) => s.elements.find((e) => e.ref === r)).filter((e): e is SnapshotElement => e !== undefined);
    return [formLine(form, s.url), ...fields.map((e) => `  ${elementLine(e, s.url, FULL_DETAIL)}`)].join('\n');
  }
  const el = s.elements.find((e) => e.ref === ref);
  if (el) return expandElement(s, el);
  const text = s.texts.find((t) => t.ref === ref);
  if (text) return textLine(text, FULL_DETAIL);
  const canvas = s.canvases.find((c) => c.ref === ref);
  if (canvas)
    return `canvas ${canvas.ref} ${canvas.box.w}×${canvas.box.h}${canvas.label ? ` ${quote(canvas.label, 400)}` : ' (no text equivalent)'}${canvas.pixelHash ? ` pixels ${canvas.pixelHash}` : ''}`;
  return undefined;
}

function expandElement(s: PageSnapshot, el: SnapshotElement): string {
  const lines = [elementLine(el, s.url, FULL_DETAIL)];
  const where: string[] = [`tag ${word(el.tag, 40)}${el.inputType ? ` type=${word(el.inputType, 40)}` : ''}`, `scope ${el.scope}`];
  if (el.framePath && el.framePath.length > 0) where.push(`frame ${el.framePath.join('.')}`);
  if (el.box) where.push(`box ${el.box.x},${el.box.y} ${el.box.w}×${el.box.h}`);
  if (el.formRef) where.push(`form ${el.formRef}`);
  if (el.href) where.push(`href ${el.href}`);
  lines.push(`  ${where.join('; ')}`);
  // What the one-line form only marks: why Steward takes it for a control, and what opened or covers what.
  if (el.inferred) lines.push(`  role inferred (confidence ${el.inferred.confidence.toFixed(2)}) from ${el.inferred.evidence.join(', ')}`);
  if (el.coveredBy) lines.push(`  ${coveredWords(el.coveredBy)}${el.coveredBy.ref ? ` (dismiss or scroll it first)` : ''}`);
  if (el.controls) lines.push(`  controls ${el.controls}`);
  if (el.passive) lines.push('  shown only: no step can act on it');
  if (el.options && el.options.length > 0) lines.push(`  options: ${el.options.map((o) => quote(o, 80)).join(' | ')}`);
  if (el.container) {
    const row = rowItems(s, el.container.ref, el.container.row);
    lines.push(`  in ${el.container.ref} row ${el.container.row}: ${rowLine(row, s.url, { maxText: 80, rich: false })}`);
  }
  return lines.join('\n');
}

function rowItems(s: PageSnapshot, containerRef: string, row: number): Item[] {
  return orderedItems(s).filter((i) => {
    const c = i.kind === 'element' ? i.el.container : i.text.container;
    return c?.ref === containerRef && c.row === row;
  });
}

function expandContainer(s: PageSnapshot, ref: string, options: ExpandOptions): string {
  const group = blocks(orderedItems(s)).find((b) => b.kind === 'container' && b.group.ref === ref);
  const meta = s.containers?.find((c) => c.ref === ref);
  const rows = group?.kind === 'container' ? [...group.group.rows] : [];
  const header = rows.filter(([n]) => n === 0);
  const body = rows.filter(([n]) => n > 0);
  const offset = Math.max(0, options.offset ?? 0);
  const limit = Math.min(Math.max(1, options.limit ?? 50), MAX_QUERY_LIMIT);
  const page = body.slice(offset, offset + limit);
  const title = `${word(meta?.role ?? 'container', 40)} ${ref}${meta?.name ? ` ${quote(meta.name, 120)}` : ''}${meta?.openedBy ? ` (from ${meta.openedBy})` : ''} — ${meta?.rows ?? body.length} rows`;
  const lines = [title];
  if (meta?.columns && meta.columns.length > 0) lines.push(`  columns: ${meta.columns.map((c) => quote(c, 40)).join(' | ')}`);
  for (const [, items] of header) lines.push(`  header: ${rowLine(items, s.url, FULL_DETAIL)}`);
  for (const [n, items] of page) lines.push(`  row ${n}: ${rowLine(items, s.url, FULL_DETAIL)}`);
  const end = offset + page.length;
  if (end < body.length) lines.push(`  … rows ${offset + 1}–${end} of ${body.length} shown; next: expand(${JSON.stringify(ref)}, {offset: ${end}})`);
  return lines.join('\n');
}
