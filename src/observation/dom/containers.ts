import { computeAccessibleName } from 'dom-accessibility-api';
import type { SnapshotContainer, SnapshotTable } from '../../protocol/snapshot.ts';
import { blockText } from './block-text.ts';
import { cleanText } from '../clean-text.ts';
import { containerRole } from './classify.ts';
import { dom } from './native.ts';

/**
 * What a repeating structure says about itself: its name, how many rows it has, its column
 * headers, and — for data tables — the first rows' cell texts (fusion reads line items from them).
 */

const MAX_COLUMNS = 30;
const MAX_COLUMN_TEXT = 60;
const MAX_TABLE_ROWS = 50;
const MAX_CELLS = 20;
const MAX_CELL_TEXT = 200;

function nameOf(el: Element): string | undefined {
  try {
    const name = cleanText(computeAccessibleName(el), 200);
    return name || undefined;
  } catch {
    return undefined;
  }
}

/** A dialog without a label is known by its first heading. */
function headingOf(el: Element): string | undefined {
  const heading = dom.queryOne(el, 'h1,h2,h3,h4,h5,h6,[role=heading]');
  return heading ? cleanText(dom.text(heading), 200) || undefined : undefined;
}

function cellTexts(cells: ArrayLike<Element>, maxCells: number, maxText: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < cells.length && i < maxCells; i++) out.push(blockText(cells[i]!, maxText));
  return out;
}

/** Header cells of a table: its <thead>'s first row, else a first row made only of <th>. */
function headerCells(table: HTMLTableElement): HTMLCollectionOf<HTMLTableCellElement> | undefined {
  const head = table.tHead?.rows[0];
  if (head) return head.cells;
  const first = table.rows[0];
  if (first && first.cells.length > 0 && Array.prototype.every.call(first.cells, (c: Element) => dom.localName(c) === 'th')) return first.cells;
  return undefined;
}

/** How many body rows a table has, and the first `limit` of them (without listing all of a long table's rows). */
function bodyRows(table: HTMLTableElement, limit: number): { count: number; first: HTMLTableRowElement[] } {
  const first: HTMLTableRowElement[] = [];
  const header = headerCells(table);
  const headerRow = header && header.length > 0 ? dom.parentElement(header[0]!) : null;
  let count = 0;
  const bodies = table.tBodies;
  for (let b = 0; b < bodies.length; b++) {
    const rows = bodies[b]!.rows;
    const n = rows.length;
    count += n;
    for (let i = 0; i < n && first.length < limit; i++) {
      const row = rows[i]!;
      if (row === headerRow) continue;
      first.push(row);
    }
    // The header row sits in a body only when the table has no <thead>: it is then that body's first row.
    if (headerRow !== null && n > 0 && rows[0] === headerRow) count--;
  }
  return { count, first };
}

export function describeContainer(el: Element, ref: string, seenRows: number): SnapshotContainer {
  const localName = dom.localName(el);
  const out: SnapshotContainer = { ref, role: containerRole(localName, dom.attr(el, 'role')), rows: seenRows };
  const name = nameOf(el) ?? (out.role === 'dialog' || out.role === 'alertdialog' ? headingOf(el) : undefined);
  if (name) out.name = name;
  if (localName === 'table') {
    const table = el as HTMLTableElement;
    out.rows = Math.max(seenRows, bodyRows(table, 0).count);
    const header = headerCells(table);
    if (header) out.columns = cellTexts(header, MAX_COLUMNS, MAX_COLUMN_TEXT);
  } else if (localName === 'ul' || localName === 'ol' || localName === 'menu') {
    out.rows = Math.max(seenRows, dom.queryAll(el, ':scope > li').length);
  } else {
    const headers = dom.queryAll(el, '[role=columnheader]');
    if (headers.length > 0) out.columns = cellTexts(headers, MAX_COLUMNS, MAX_COLUMN_TEXT);
  }
  return out;
}

/** One row's cell texts as readTable reads them. */
export const rowCellTexts = (row: HTMLTableRowElement): string[] => cellTexts(row.cells, MAX_CELLS, MAX_CELL_TEXT);

/**
 * A data table's text for fusion: header texts and the first body rows' cells. `rowTexts` may
 * answer rows that did not change from a cache (it must give what rowCellTexts gives).
 */
export function readTable(table: HTMLTableElement, ref: string, rowTexts: (row: HTMLTableRowElement) => string[] = rowCellTexts): SnapshotTable {
  const header = headerCells(table);
  const { count, first } = bodyRows(table, MAX_TABLE_ROWS);
  const out: SnapshotTable = {
    ref,
    headers: header ? cellTexts(header, MAX_CELLS, MAX_CELL_TEXT) : [],
    rows: first.map(rowTexts),
  };
  const caption = table.caption ? cleanText(dom.text(table.caption), MAX_CELL_TEXT) : '';
  if (caption) out.caption = caption;
  if (count > MAX_TABLE_ROWS) out.rowCount = count;
  return out;
}
