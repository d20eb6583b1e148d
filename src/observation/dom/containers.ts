import { computeAccessibleName } from 'dom-accessibility-api';
import type { SnapshotContainer, SnapshotTable } from '../snapshot.ts';
import { blockText } from './block-text.ts';
import { cleanText, containerRole } from './classify.ts';
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

function bodyRows(table: HTMLTableElement): HTMLTableRowElement[] {
  const rows: HTMLTableRowElement[] = [];
  const header = headerCells(table);
  const headerRow = header && header.length > 0 ? dom.parentElement(header[0]!) : null;
  for (const body of Array.from(table.tBodies)) for (const row of Array.from(body.rows)) if (row !== headerRow) rows.push(row);
  return rows;
}

export function describeContainer(el: Element, ref: string, seenRows: number): SnapshotContainer {
  const localName = dom.localName(el);
  const out: SnapshotContainer = { ref, role: containerRole(localName, dom.attr(el, 'role')), rows: seenRows };
  const name = nameOf(el);
  if (name) out.name = name;
  if (localName === 'table') {
    const table = el as HTMLTableElement;
    out.rows = Math.max(seenRows, bodyRows(table).length);
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

/** A data table's text for fusion: header texts and the first body rows' cells. */
export function readTable(table: HTMLTableElement, ref: string): SnapshotTable {
  const header = headerCells(table);
  const rows = bodyRows(table);
  const out: SnapshotTable = {
    ref,
    headers: header ? cellTexts(header, MAX_CELLS, MAX_CELL_TEXT) : [],
    rows: rows.slice(0, MAX_TABLE_ROWS).map((r) => cellTexts(r.cells, MAX_CELLS, MAX_CELL_TEXT)),
  };
  const caption = table.caption ? cleanText(dom.text(table.caption), MAX_CELL_TEXT) : '';
  if (caption) out.caption = caption;
  if (rows.length > MAX_TABLE_ROWS) out.rowCount = rows.length;
  return out;
}
