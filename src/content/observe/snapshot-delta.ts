import { SameAsBase, type ObserveReplyData, type SnapshotDelta, type SnapshotElementPatch } from '../../protocol/messages.ts';
import { snapshotDigest } from '../../observation/snapshot-digest.ts';
import { encodeTexts, extendRun, type TextRun } from '../../observation/text-pieces.ts';
import type { PageSnapshot, SnapshotElement } from '../../protocol/snapshot.ts';

/**
 * Shrinks what crosses to the service worker once it holds a snapshot of this document: new
 * elements in full, changed ones as patches of the fields that differ, runs of elements whose box
 * alone moved by the same offset as `moves` (a reflow that shifts every box sends a few numbers,
 * not thousands of boxes), the ref order and `order` numbers only when they changed, and texts as
 * runs of the previous ones plus the new (see text-pieces.ts), and the other lists (forms, tables…)
 * only when they changed. The observer reports an unchanged
 * element as the very same object, so most comparisons are an identity check; after a full
 * re-walk (new objects) they compare values.
 * The service worker ends up with the complete snapshot the page produced. Another sequence
 * number or another document sends everything.
 */
export class DeltaEncoder {
  private seq = 0;
  private last: PageSnapshot | undefined;
  private lastOrders: number[] | undefined;
  /** The last snapshot's text orders (the observer reuses unchanged text objects too, see lastOrders). */
  private lastTextOrders: number[] | undefined;
  /** The last snapshot's other lists as JSON (they may be reused objects changed in place: compare the text). */
  private lastLists: Partial<Record<SameAsBase, string>> = {};

  /** `withDigest`: add the snapshot's digest to a delta (asked for with full observations, see snapshot-digest.ts). */
  encode(snapshot: PageSnapshot, since?: { documentToken: string; seq: number }, withDigest = false): ObserveReplyData {
    const seq = ++this.seq;
    const previous = this.last;
    const previousOrders = this.lastOrders;
    const elements = snapshot.elements;
    const orders = new Array<number>(elements.length);
    for (let i = 0; i < elements.length; i++) orders[i] = elements[i]!.order ?? 0;
    const previousTextOrders = this.lastTextOrders;
    const textOrders = new Array<number>(snapshot.texts.length);
    for (let i = 0; i < snapshot.texts.length; i++) textOrders[i] = snapshot.texts[i]!.order ?? 0;
    // Keep the orders apart: the observer reuses element and text objects and moves their `order` in later snapshots.
    this.last = snapshot;
    this.lastOrders = orders;
    this.lastTextOrders = textOrders;
    const previousLists = this.lastLists;
    const lists: Partial<Record<SameAsBase, string>> = {};
    for (const key of SameAsBase.options) lists[key] = JSON.stringify(snapshot[key]);
    this.lastLists = lists;
    const fits = since !== undefined && previous !== undefined && previous.documentToken === snapshot.documentToken && since.seq === seq - 1 && since.documentToken === snapshot.documentToken;
    if (!fits || !previousOrders) return { kind: 'full', seq, snapshot };
    const { changed, patches, moves, sameRefs } = compareElements(elements, previous.elements);
    const { elements: _elements, texts, ...rest } = snapshot;
    const delta: SnapshotDelta = { ...rest, changed };
    const same = SameAsBase.options.filter((key) => lists[key] !== undefined && lists[key] === previousLists[key]);
    for (const key of same) delete delta[key];
    if (same.length > 0) delta.same = same;
    if (patches.length > 0) delta.patches = patches;
    const runs = moves.runs;
    if (runs.length > 0) delta.moves = runs;
    if (!sameRefs) delta.elementRefs = elements.map((e) => e.ref);
    if (!sameList(orders, previousOrders)) {
      const shifts = sameRefs ? orderShifts(orders, previousOrders) : undefined;
      if (shifts) delta.elementOrderShifts = shifts;
      else delta.elementOrders = orders;
    }
    const told = encodeTexts(texts, previous.texts, texts.length / 2, previousTextOrders);
    // Runs only pay when most texts are kept; otherwise the list itself is shorter.
    if (told.literals > texts.length / 2) delta.texts = texts;
    else if (!told.unchanged) delta.textPieces = told.pieces;
    return withDigest ? { kind: 'delta', seq, baseSeq: since.seq, digest: snapshotDigest(snapshot), delta } : { kind: 'delta', seq, baseSeq: since.seq, delta };
  }
}

/**
 * New elements, patches and moves of `elements` against `before`. (Its own function: the loop
 * gets optimized as a whole instead of on-stack in the middle of `encode`, whose code after the
 * loop then lacked type feedback and was thrown away on every call.)
 */
function compareElements(elements: readonly SnapshotElement[], before: readonly SnapshotElement[]) {
  const changed: SnapshotElement[] = [];
  const patches: SnapshotElementPatch[] = [];
  const moves = new MoveRuns();
  // Usually the refs are where they were: compare by position, and index the old list by ref only when they are not.
  let sameRefs = before.length === elements.length;
  let byRef: Map<string, SnapshotElement> | undefined;
  for (let i = 0; i < elements.length; i++) {
    const e = elements[i]!;
    const at = before[i];
    if (at === e) continue;
    let old: SnapshotElement | undefined;
    if (at !== undefined && at.ref === e.ref) old = at;
    else {
      sameRefs = false;
      byRef ??= new Map(before.map((b) => [b.ref, b]));
      old = byRef.get(e.ref);
    }
    if (old === e) continue;
    if (!old) changed.push(e);
    else if (!sameExceptBox(old, e)) patches.push(diffElement(old, e)!);
    else if (!sameBox(old.box, e.box) && !moves.add(i, old.box, e.box)) patches.push({ ref: e.ref, box: e.box ?? null } as SnapshotElementPatch);
  }
  return { changed, patches, moves, sameRefs };
}

/** Runs of positions whose order moved alike; undefined when there are too many to be worth it. */
function orderShifts(orders: readonly number[], previous: readonly number[]): TextRun[] | undefined {
  const runs: TextRun[] = [];
  for (let i = 0; i < orders.length; i++) {
    const shift = orders[i]! - previous[i]!;
    if (shift === 0) continue;
    extendRun(runs, i, shift);
    if (runs.length > orders.length / 8) return undefined;
  }
  return runs;
}

/** Collects boxes that only moved as runs of neighbours moved alike (see SnapshotDeltaSchema `moves`). */
class MoveRuns {
  private readonly open: Array<{ first: number; count: number; dx: number; dy: number; nudges: number[]; nudged: boolean }> = [];

  /** Takes the change when the box kept its size; false: send it as a patch. */
  add(position: number, before: SnapshotElement['box'], box: SnapshotElement['box']): boolean {
    if (!box || !before || box.w !== before.w || box.h !== before.h) return false;
    const dx = box.x - before.x;
    const dy = box.y - before.y;
    const last = this.open[this.open.length - 1];
    if (last && last.first + last.count === position && Math.abs(dx - last.dx) <= 1 && Math.abs(dy - last.dy) <= 1) {
      const nudge = 3 * (dx - last.dx + 1) + (dy - last.dy + 1);
      last.nudges.push(nudge);
      last.nudged ||= nudge !== 4;
      last.count++;
    } else this.open.push({ first: position, count: 1, dx, dy, nudges: [4], nudged: false });
    return true;
  }

  get runs(): NonNullable<SnapshotDelta['moves']> {
    return this.open.map((r) => (r.nudged ? [r.first, r.count, r.dx, r.dy, r.nudges.join('')] : [r.first, r.count, r.dx, r.dy]));
  }
}

const SCALARS = ['role', 'name', 'description', 'value', 'visibility', 'tag', 'inputType', 'href', 'formRef', 'scope', 'controls', 'passive'] as const;
const LISTS = ['states', 'options', 'framePath'] as const;
/** Small plain objects (issue 26's fields), compared by value: a full re-walk makes new ones that are equal. */
const RECORDS = ['inferred', 'coveredBy', 'range', 'shape'] as const;

function sameList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]));
}

const sameBox = (a: SnapshotElement['box'], b: SnapshotElement['box']) => a === b || (!!a && !!b && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h);
const sameRow = (a: SnapshotElement['container'], b: SnapshotElement['container']) => a === b || (a?.ref === b?.ref && a?.row === b?.row);

/** The fields of `after` that differ from `before` (`order` travels separately); undefined when none. */
function diffElement(before: SnapshotElement, after: SnapshotElement): SnapshotElementPatch | undefined {
  // After a full re-walk nearly every element compares equal: check first, build a patch only when needed.
  if (sameExceptBox(before, after) && sameBox(before.box, after.box)) return undefined;
  const patch: Record<string, unknown> = { ref: after.ref };
  for (const k of SCALARS) if (before[k] !== after[k]) patch[k] = after[k] ?? null;
  for (const k of LISTS) if (!sameList<unknown>(before[k], after[k])) patch[k] = after[k] ?? null;
  for (const k of RECORDS) if (!sameData(before[k], after[k])) patch[k] = after[k] ?? null;
  if (!sameBox(before.box, after.box)) patch.box = after.box ?? null;
  if (!sameRow(before.container, after.container)) patch.container = after.container ?? null;
  return patch as SnapshotElementPatch;
}

/** Plain data (strings, numbers, arrays, objects of them) equal by value. */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameData(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Every field but `box` and `order` alike (SCALARS, LISTS, RECORDS, container), spelled out: named reads, not keyed ones, in the hot loop. */
function sameExceptBox(a: SnapshotElement, b: SnapshotElement): boolean {
  return (
    a.name === b.name &&
    a.role === b.role &&
    a.visibility === b.visibility &&
    a.value === b.value &&
    a.tag === b.tag &&
    a.scope === b.scope &&
    a.href === b.href &&
    a.inputType === b.inputType &&
    a.formRef === b.formRef &&
    a.description === b.description &&
    a.controls === b.controls &&
    a.passive === b.passive &&
    sameList(a.states, b.states) &&
    sameList(a.options, b.options) &&
    sameList(a.framePath, b.framePath) &&
    sameRow(a.container, b.container) &&
    sameData(a.inferred, b.inferred) &&
    sameData(a.coveredBy, b.coveredBy) &&
    sameData(a.range, b.range) &&
    sameData(a.shape, b.shape)
  );
}
