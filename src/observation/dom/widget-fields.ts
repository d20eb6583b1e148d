import type { CoveredBy, ShapeInfo } from '../../protocol/element.ts';
import type { SnapshotElement } from '../../protocol/snapshot.ts';
import { CONTAINER_SELECTOR } from './classify.ts';
import type { Entry } from './entries.ts';
import type { Limits } from './limits.ts';
import { dom } from './native.ts';
import { boxKind, SIZED_KINDS, sizeClasses } from './shape-kinds.ts';

/**
 * Issue 26's element fields, settled once every element of a snapshot is emitted: a shape's size
 * (against the other shapes of its drawing), the popup a control controls (a container of this
 * snapshot), what covers a covered control, a range's bounds, `passive`; and which containers
 * show something (for `openedBy`, see openers.ts). An element whose fields already read right —
 * the same object as last time, usually — is left as it is; one that differs is replaced by a
 * copy (snapshots are read-only: the previous one may hold the old object).
 */

interface Noted {
  entry: Entry;
  index: number;
}

/** Roles whose elements show their container to a person: anything not hidden. */
const SHOWN = new Set<SnapshotElement['visibility']>(['visible', 'covered']);
/** aria-controls / aria-owns ids tried per control. */
const MAX_IDS = 4;

export class WidgetFields {
  private readonly shapes: Noted[] = [];
  private readonly others: Noted[] = [];
  private readonly perDrawing = new Map<Element, number>();
  private shapeCount = 0;
  /** Containers something rendered sits in, in this snapshot. */
  readonly shown = new Set<Element>();
  private lastShown: Element | undefined;

  constructor(
    private readonly limits: Pick<Limits, 'maxShapes' | 'maxShapesPerDrawing'>,
    private readonly blind: Set<string>,
  ) {}

  /** Whether one more shape of `drawing` may be reported (per drawing and per page: a chart of thousands of paths is cut, and says so). */
  admitShape(drawing: Element): boolean {
    const n = this.perDrawing.get(drawing) ?? 0;
    if (n >= this.limits.maxShapesPerDrawing || this.shapeCount >= this.limits.maxShapes) {
      this.blind.add('svg_shapes_truncated');
      return false;
    }
    this.perDrawing.set(drawing, n + 1);
    this.shapeCount++;
    return true;
  }

  /** An element emitted at `index` of the snapshot's elements. */
  noteElement(entry: Entry, index: number, element: SnapshotElement): void {
    if (entry.container && SHOWN.has(element.visibility)) this.noteShown(entry.container);
    const s = entry.semantics!;
    if (s.shape) this.shapes.push({ entry, index });
    else if (s.controlsIds || s.range || element.visibility === 'covered' || element.coveredBy || element.controls || element.range) this.others.push({ entry, index });
  }

  /** A rendered text sits in `container`. */
  noteShown(container: Element): void {
    if (container === this.lastShown) return;
    this.lastShown = container;
    this.shown.add(container);
  }

  /** Sets the fields on the snapshot's elements; `containerRef`: the ref of a container of this snapshot, if it is one. */
  finish(elements: SnapshotElement[], containerRef: (el: Element) => string | undefined): void {
    this.finishShapes(elements);
    for (const { entry, index } of this.others) {
      const el = elements[index]!;
      const s = entry.semantics!;
      const controlled = s.controlsIds ? controlledContainer(entry, s.controlsIds) : undefined;
      const fields: Fields = {
        coveredBy: el.visibility === 'covered' ? entry.cover : undefined,
        range: s.range,
        controls: controlled ? containerRef(controlled) : undefined,
      };
      update(elements, entry, index, fields);
    }
  }

  /** Kind (a square rect, a round ellipse), paint and size of each shape, sizes per drawing. */
  private finishShapes(elements: SnapshotElement[]): void {
    const byDrawing = new Map<Element, Noted[]>();
    for (const n of this.shapes) {
      const drawing = n.entry.semantics!.shape!.drawing;
      const list = byDrawing.get(drawing);
      if (list) list.push(n);
      else byDrawing.set(drawing, [n]);
    }
    for (const list of byDrawing.values()) {
      const infos = list.map(({ entry, index }) => {
        const style = entry.semantics!.shape!;
        const box = elements[index]!.box;
        const info: ShapeInfo = { kind: box ? boxKind(style.kind, box.w, box.h) : style.kind };
        if (style.fill) info.fill = style.fill;
        if (style.stroke) info.stroke = style.stroke;
        return { info, area: box && SIZED_KINDS.has(info.kind) ? box.w * box.h : undefined };
      });
      const sizes = sizeClasses(infos.map((i) => i.area));
      list.forEach(({ entry, index }, i) => {
        const { info } = infos[i]!;
        const size = sizes[i];
        if (size) info.size = size;
        const el = elements[index]!;
        update(elements, entry, index, {
          shape: el.shape && sameShape(el.shape, info) ? el.shape : info,
          passive: entry.semantics!.passive,
          coveredBy: el.visibility === 'covered' ? entry.cover : undefined,
        });
      });
    }
  }
}

type Fields = Partial<Pick<SnapshotElement, 'coveredBy' | 'range' | 'controls' | 'shape' | 'passive'>>;

/** Puts `fields` on the element at `index` (a copy, when any differs), and keeps the copy as the entry's last report. */
function update(elements: SnapshotElement[], entry: Entry, index: number, fields: Fields): void {
  const el = elements[index]!;
  let next: SnapshotElement | undefined;
  for (const key of Object.keys(fields) as Array<keyof Fields>) {
    const want = fields[key];
    if (el[key] === want || (key === 'coveredBy' && el.coveredBy && want && sameCover(el.coveredBy, want as CoveredBy))) continue;
    next ??= { ...el };
    if (want === undefined) delete next[key];
    else (next as unknown as Record<string, unknown>)[key] = want;
  }
  if (!next) return;
  elements[index] = next;
  if (entry.out) entry.out.element = next;
}

const sameCover = (a: CoveredBy, b: CoveredBy) => a.role === b.role && a.name === b.name && a.ref === b.ref;
const sameShape = (a: ShapeInfo, b: ShapeInfo) => a.kind === b.kind && a.fill === b.fill && a.stroke === b.stroke && a.size === b.size;

/** The container an aria-controls / aria-owns names: the target itself, or the first container inside it (a popup wrapper around its listbox). */
function controlledContainer(entry: Entry, ids: string): Element | undefined {
  const root = entry.root.key;
  for (const id of ids.split(/\s+/).slice(0, MAX_IDS)) {
    let target: Element | null;
    try {
      target = dom.queryOne(root, `#${CSS.escape(id)}`);
    } catch {
      continue;
    }
    if (!target) continue;
    if (dom.matches(target, CONTAINER_SELECTOR)) return target;
    const inner = dom.queryOne(target, CONTAINER_SELECTOR);
    if (inner) return inner;
  }
  return undefined;
}
