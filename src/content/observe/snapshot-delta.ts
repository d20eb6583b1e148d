import type { ObserveReplyData, SnapshotDelta, SnapshotElementPatch } from '../../protocol/messages.ts';
import type { PageSnapshot, SnapshotElement, SnapshotText } from '../../observation/snapshot.ts';

/**
 * Shrinks what crosses to the service worker once it holds a snapshot of this document: new
 * elements in full, changed ones as patches of the fields that differ, runs of elements whose box
 * alone moved by the same offset as `moves` (a reflow that shifts every box sends a few numbers,
 * not thousands of boxes), and the ref order, `order` numbers and texts only when they
 * changed. The observer reports an unchanged element as the very same object, so most
 * comparisons are an identity check; after a full re-walk (new objects) they compare values.
 * The service worker ends up with the complete snapshot the page produced. Another sequence
 * number or another document sends everything.
 */
export class DeltaEncoder {
  private seq = 0;
  private last: PageSnapshot | undefined;
  private lastOrders: number[] | undefined;

  encode(snapshot: PageSnapshot, since?: { documentToken: string; seq: number }): ObserveReplyData {
    const seq = ++this.seq;
    const previous = this.last;
    const previousOrders = this.lastOrders;
    const elements = snapshot.elements;
    const orders = new Array<number>(elements.length);
    for (let i = 0; i < elements.length; i++) orders[i] = elements[i]!.order ?? 0;
    // Keep the orders apart: the observer reuses element objects and moves their `order` in later snapshots.
    this.last = snapshot;
    this.lastOrders = orders;
    const fits =
      since !== undefined &&
      previous !== undefined &&
      previous.documentToken === snapshot.documentToken &&
      since.seq === seq - 1 &&
      since.documentToken === snapshot.documentToken;
    if (!fits || !previousOrders) return { kind: 'full', seq, snapshot };
    const changed: SnapshotElement[] = [];
    const patches: SnapshotElementPatch[] = [];
    const moves = new MoveRuns();
    const before = previous.elements;
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
      else {
        const patch = diffElement(old, e);
        if (patch && !moves.add(i, patch, old.box)) patches.push(patch);
      }
    }
    const { elements: _elements, texts, ...rest } = snapshot;
    const delta: SnapshotDelta = { ...rest, changed };
    if (patches.length > 0) delta.patches = patches;
    if (moves.runs.length > 0) delta.moves = moves.runs;
    if (!sameRefs) delta.elementRefs = elements.map((e) => e.ref);
    if (!sameList(orders, previousOrders)) delta.elementOrders = orders;
    const textChanges = changedTexts(texts, previous.texts);
    if (textChanges === undefined) delta.texts = texts;
    else if (textChanges.length > 0) delta.textChanges = textChanges;
    return { kind: 'delta', seq, baseSeq: since.seq, delta };
  }
}

/** Collects box-only patches as runs of consecutive positions moved by the same offset. */
class MoveRuns {
  readonly runs: Array<[number, number, number, number]> = [];

  /** Takes the patch when it only moves the box (same size); false: send it as a patch. */
  add(position: number, patch: SnapshotElementPatch, before: SnapshotElement['box']): boolean {
    const box = patch.box;
    if (!box || !before || box.w !== before.w || box.h !== before.h) return false;
    for (const key in patch) if (key !== 'ref' && key !== 'box') return false;
    const dx = box.x - before.x;
    const dy = box.y - before.y;
    const last = this.runs[this.runs.length - 1];
    if (last && last[0] + last[1] === position && last[2] === dx && last[3] === dy) last[1]++;
    else this.runs.push([position, 1, dx, dy]);
    return true;
  }
}

const SCALARS = ['role', 'name', 'description', 'value', 'visibility', 'tag', 'inputType', 'href', 'formRef', 'scope'] as const;
const LISTS = ['states', 'options', 'framePath'] as const;

function sameList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]));
}

const sameBox = (a: SnapshotElement['box'], b: SnapshotElement['box']) => a === b || (!!a && !!b && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h);
const sameRow = (a: SnapshotElement['container'], b: SnapshotElement['container']) => a === b || (a?.ref === b?.ref && a?.row === b?.row);

/** The fields of `after` that differ from `before` (`order` travels separately); undefined when none. */
export function diffElement(before: SnapshotElement, after: SnapshotElement): SnapshotElementPatch | undefined {
  // After a full re-walk nearly every element compares equal: check first, build a patch only when needed.
  if (sameElement(before, after)) return undefined;
  const patch: Record<string, unknown> = { ref: after.ref };
  for (const k of SCALARS) if (before[k] !== after[k]) patch[k] = after[k] ?? null;
  for (const k of LISTS) if (!sameList<unknown>(before[k], after[k])) patch[k] = after[k] ?? null;
  if (!sameBox(before.box, after.box)) patch.box = after.box ?? null;
  if (!sameRow(before.container, after.container)) patch.container = after.container ?? null;
  return patch as SnapshotElementPatch;
}

function sameElement(a: SnapshotElement, b: SnapshotElement): boolean {
  for (const k of SCALARS) if (a[k] !== b[k]) return false;
  for (const k of LISTS) if (!sameList<unknown>(a[k], b[k])) return false;
  return sameBox(a.box, b.box) && sameRow(a.container, b.container);
}

const sameText = (x: SnapshotText, y: SnapshotText) =>
  x.text === y.text && x.role === y.role && x.level === y.level && x.ref === y.ref && x.order === y.order && sameRow(x.container, y.container);

/** Texts that differ in place, or undefined when the lists differ too much (then all are sent). */
function changedTexts(now: readonly SnapshotText[], before: readonly SnapshotText[]): Array<{ at: number; text: SnapshotText }> | undefined {
  if (now.length !== before.length) return undefined;
  const changes: Array<{ at: number; text: SnapshotText }> = [];
  for (let i = 0; i < now.length; i++) {
    if (sameText(now[i]!, before[i]!)) continue;
    changes.push({ at: i, text: now[i]! });
    if (changes.length > now.length / 4) return undefined;
  }
  return changes;
}
