import type { PageSnapshot, SnapshotCanvas, SnapshotContainer, SnapshotForm, SnapshotRowRef, SnapshotTable } from '../../protocol/snapshot.ts';
import { readCanvas } from './canvas.ts';
import { DIALOG_SELECTOR } from './classify.ts';
import { cleanText } from '../clean-text.ts';
import { describeContainer, readTable, rowCellTexts } from './containers.ts';
import type { Entry } from './entries.ts';
import type { LiveModel } from './model.ts';
import { dom } from './native.ts';
import type { SnapshotGeometry } from './snapshot-geometry.ts';
import type { StructuredDataReader } from './structured-data.ts';

/** The page-level parts of a snapshot, gathered while elements and texts are emitted: rows, forms, canvases, tables, structured data. */

const SUBMIT_INPUTS = new Set(['submit', 'image']);
const MAX_TABLES = 20;
const MAX_CANVASES_LISTED = 200;

/** Numbers rows per container in document order (0 for header rows) and describes the containers. */
export class RowNumbering {
  private readonly containers = new Map<Element, { ref: string; rows: Map<Element, SnapshotRowRef>; header?: SnapshotRowRef }>();
  /** Dialogs not shown in this snapshot: no container (their controls are hidden ones, like any others). */
  private readonly closed = new Set<Element>();
  /** The last answer of `rowOf` and what it was for: the controls and texts of one row come one after another. */
  private lastRow: Element | undefined;
  private lastContainer: Element | undefined;
  private lastHeader: boolean | undefined;
  private lastAnswer: SnapshotRowRef | undefined;

  constructor(private readonly model: LiveModel) {}

  rowOf(entry: Entry): SnapshotRowRef | undefined {
    if (!entry.container || !entry.row) return undefined;
    if (entry.row === this.lastRow && entry.container === this.lastContainer && entry.headerRow === this.lastHeader) return this.lastAnswer;
    const answer = this.numberRow(entry.container, entry.row, entry.headerRow);
    this.lastRow = entry.row;
    this.lastContainer = entry.container;
    this.lastHeader = entry.headerRow;
    this.lastAnswer = answer;
    return answer;
  }

  private numberRow(container: Element, rowEl: Element, headerRow: boolean | undefined): SnapshotRowRef | undefined {
    let c = this.containers.get(container);
    if (!c) {
      if (this.closed.has(container) || closedDialog(container)) {
        this.closed.add(container);
        return undefined;
      }
      c = { ref: this.model.refs.refFor(container), rows: new Map() };
      this.containers.set(container, c);
    }
    if (headerRow) return (c.header ??= { ref: c.ref, row: 0 });
    let row = c.rows.get(rowEl);
    if (row === undefined) {
      row = { ref: c.ref, row: c.rows.size + 1 };
      c.rows.set(rowEl, row);
    }
    return row;
  }

  /** What the container says about itself, reused while nothing inside it changed. */
  private cached(el: Element, ref: string, seenRows: number) {
    const cache = this.model.containerCache;
    let hit = cache.get(el);
    if (!hit || hit.rows !== seenRows || this.model.changedWithin(el)) {
      let described: SnapshotContainer;
      try {
        described = describeContainer(el, ref, seenRows);
      } catch {
        described = { ref, role: 'list', rows: seenRows };
      }
      hit = { rows: seenRows, described };
      cache.set(el, hit);
    }
    return hit;
  }

  /** `openedBy`: the control that opened a container (openers.ts), when one did. */
  describe(openedBy?: (el: Element) => string | undefined): SnapshotContainer[] {
    return [...this.containers].map(([el, c]) => {
      const described = this.cached(el, c.ref, c.rows.size).described;
      const opener = openedBy?.(el);
      // The cached description is shared with earlier snapshots: a copy carries the opener.
      return opener ? { ...described, openedBy: opener } : described;
    });
  }

  /** The ref of a container that holds something in this snapshot (none for one that does not). */
  refOf(el: Element): string | undefined {
    return this.containers.get(el)?.ref;
  }

  /** A row's cell texts, kept while nothing inside the row changes (a change in one cell re-reads one row, not fifty). */
  private rowTexts(row: HTMLTableRowElement): string[] {
    const cache = this.model.rowTextCache;
    let texts = cache.get(row);
    if (!texts || this.model.changedWithin(row)) {
      texts = rowCellTexts(row);
      cache.set(row, texts);
    }
    return texts;
  }

  /** Data tables' text, for fusion (line items, totals). */
  tables(blind: Set<string>): SnapshotTable[] {
    const out: SnapshotTable[] = [];
    for (const [el, c] of this.containers) {
      if (dom.localName(el) !== 'table' || out.length >= MAX_TABLES) continue;
      const hit = this.cached(el, c.ref, c.rows.size);
      try {
        hit.table ??= readTable(el as HTMLTableElement, c.ref, (row) => this.rowTexts(row));
        out.push(hit.table);
      } catch {
        blind.add('table_read_failed');
      }
    }
    return out;
  }
}

/** A dialog that is not rendered (a closed `<dialog>`, a hidden role=dialog). */
function closedDialog(el: Element): boolean {
  return dom.matches(el, DIALOG_SELECTOR) && !dom.checkVisibility(el, { visibilityProperty: true });
}

/** Collects each form's fields and submit button as its controls are emitted, then describes the forms. */
export class FormCollector {
  private readonly fields = new Map<Element, { refs: string[]; submitRef?: string }>();
  private readonly entries: Entry[] = [];

  constructor(private readonly model: LiveModel) {}

  addForm(entry: Entry): void {
    this.entries.push(entry);
  }

  addField(form: Element, el: Element, tag: string, inputType: string | undefined, ref: string): void {
    let f = this.fields.get(form);
    if (!f) {
      f = { refs: [] };
      this.fields.set(form, f);
    }
    f.refs.push(ref);
    if (f.submitRef) return;
    const buttonType = tag === 'button' ? (dom.attr(el, 'type') ?? 'submit').trim().toLowerCase() : undefined;
    const submits = buttonType !== undefined ? buttonType !== 'button' && buttonType !== 'reset' : tag === 'input' && SUBMIT_INPUTS.has(inputType ?? '');
    if (submits) f.submitRef = ref;
  }

  /** Attributes are read through the prototypes: `<input name="action">` cannot impersonate the form's action. */
  forms(): SnapshotForm[] {
    return this.entries.map((entry) => {
      const form = entry.node as Element;
      const fields = this.fields.get(form);
      const out: SnapshotForm = { ref: this.model.refs.refFor(form), fieldRefs: fields?.refs ?? [] };
      if (fields?.submitRef) out.submitRef = fields.submitRef;
      const label = dom.attr(form, 'aria-label') ?? dom.attr(form, 'name') ?? dom.attr(form, 'id');
      if (label && label.trim()) out.name = cleanText(label, 200);
      const stated = dom.attr(form, 'method');
      const method = (stated ?? 'get').trim().toLowerCase();
      out.method = method === 'post' || method === 'dialog' ? method : 'get';
      if (stated !== null && stated !== undefined) out.methodDeclared = true;
      out.action = resolveUrl(dom.attr(form, 'action') ?? '', entry.root.doc);
      const toolname = dom.attr(form, 'toolname')?.trim();
      if (toolname) out.toolname = toolname.slice(0, 256);
      return out;
    });
  }
}

/** Rendered canvases: text equivalent and (for the first few) a pixel hash. */
export function readCanvases(entries: Entry[], model: LiveModel, geometry: SnapshotGeometry, blind: Set<string>): SnapshotCanvas[] {
  const out: SnapshotCanvas[] = [];
  for (const entry of entries) {
    if (out.length >= MAX_CANVASES_LISTED) break;
    const g = geometry.geometry(entry, true);
    if (g.hidden || entry.root.hostHidden || g.w * g.h < 1) continue;
    const ref = model.refs.refFor(entry.node as Element);
    const canvas = readCanvas(entry.node as HTMLCanvasElement, ref, geometry.pageBox(entry.root, g), out.length < model.limits.maxCanvases);
    if (canvas.unreadable) blind.add('canvas_pixels_unreadable');
    out.push(canvas);
  }
  return out;
}

/** JSON-LD and microdata of the top document and of every same-origin frame document. */
export function readStructuredData(model: LiveModel, reader: StructuredDataReader, blind: Set<string>): PageSnapshot['structuredData'] {
  const docs = new Set<Document>([model.doc]);
  for (const r of model.roots.values()) if (r.scope === 'iframe' && r.alive) docs.add(r.doc);
  const items: PageSnapshot['structuredData'] = [];
  for (const doc of docs) {
    try {
      const read = reader.read(doc, model.structuredChanged, doc === model.doc ? model.structuredMarks : undefined);
      items.push(...read.items);
      read.blindSpots.forEach((s) => blind.add(s));
    } catch {
      blind.add('structured_data_failed');
    }
  }
  return items;
}

/** Longest contract link Steward keeps (a page cannot make the snapshot carry more). */
const MAX_CONTRACT_HREF = 2048;

/**
 * The top document's first `<link rel="agent-contract" href>` (the site's Semantic State Contract,
 * DESIGN §6), resolved to an absolute http(s) URL. Only a hint: the worker fetches it only on the
 * page's own origin and only for a site the person allowed, and parses what it gets.
 */
export function readContractLink(model: LiveModel): string | undefined {
  try {
    const link = dom.queryOne(model.doc, 'link[rel~="agent-contract" i][href]');
    const href = link ? dom.attr(link, 'href') : null;
    if (!href) return undefined;
    const url = new URL(href, dom.doc.baseUri(model.doc));
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.href.length <= MAX_CONTRACT_HREF ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function resolveUrl(value: string, doc: Document): string {
  try {
    return new URL(value, dom.doc.baseUri(doc)).href.slice(0, 2048);
  } catch {
    return value.slice(0, 2048);
  }
}
