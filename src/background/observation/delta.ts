import type { SnapshotDelta, SnapshotElementPatch } from '../../protocol/messages.ts';
import type { PageSnapshot, SnapshotElement } from '../../protocol/snapshot.ts';
import { applyTexts } from '../../observation/text-pieces.ts';

/** As many texts as a snapshot may carry (PageSnapshotSchema). */
const MAX_TEXTS = 5_000;

/**
 * Rebuilds a full PageSnapshot from the previous one and a delta (pure). Returns undefined when
 * the delta does not fit its base — a ref it cannot resolve, a ref twice, a new element or a
 * patch it does not list, a patch for an element the base does not have, lists of different
 * lengths, a move of an element that is new, patched, boxless, moved twice or past the list, an
 * order shift below zero, text runs past the base or beyond a snapshot's texts, a list both sent and
 * said to be the base's, a list neither — so the caller
 * asks for a full snapshot instead of trusting a half-merge. The base is never modified:
 * changed elements are copies.
 */
export function applyDelta(base: PageSnapshot, baseByRef: ReadonlyMap<string, SnapshotElement>, delta: SnapshotDelta): PageSnapshot | undefined {
  const { elementRefs, elementOrders, elementOrderShifts, changed, patches, moves, texts, textPieces, same, forms, structuredData, canvases, ...rest } = delta;
  if (base.documentToken === undefined || base.documentToken !== delta.documentToken) return undefined;
  // Lists the page says are as in the base come from the base; one sent and said to be the same does not fit.
  const lists = { forms, structuredData, canvases, tables: rest.tables, containers: rest.containers };
  for (const key of same ?? []) {
    if (lists[key] !== undefined) return undefined;
    (lists as Record<string, unknown>)[key] = base[key];
  }
  if (!lists.forms || !lists.structuredData || !lists.canvases) return undefined;
  // Nothing about the elements changed (an idle page, or a full re-walk that found the same): the
  // base's list is shared as it is (snapshots are read-only).
  const sameElements = !elementRefs && !elementOrders && !elementOrderShifts?.length && changed.length === 0 && !patches?.length && !moves?.length;
  const refs = sameElements ? [] : (elementRefs ?? base.elements.map((e) => e.ref));
  const orders = sameElements ? [] : (elementOrders ?? base.elements.map((e) => e.order ?? 0));
  if (refs.length !== orders.length) return undefined;
  if (elementOrderShifts) {
    // Shifts apply to the base's refs in the base's places only.
    if (elementRefs || elementOrders) return undefined;
    for (const [first, count, shift] of elementOrderShifts) {
      if (first + count > orders.length) return undefined;
      for (let i = first; i < first + count; i++) if ((orders[i]! += shift) < 0) return undefined;
    }
  }
  const added = new Map(changed.map((e) => [e.ref, e]));
  const patched = new Map<string, SnapshotElementPatch>((patches ?? []).map((p) => [p.ref, p]));
  // Each position moves at most once, within the list.
  const movedBy: Array<[number, number] | undefined> = [];
  for (const [first, count, dx, dy, nudges] of moves ?? []) {
    if (first + count > refs.length || (nudges !== undefined && nudges.length !== count)) return undefined;
    for (let i = first; i < first + count; i++) {
      if (movedBy[i]) return undefined;
      const nudge = nudges === undefined ? 4 : nudges.charCodeAt(i - first) - 48;
      movedBy[i] = [dx + Math.floor(nudge / 3) - 1, dy + (nudge % 3) - 1];
    }
  }
  const seen = new Set<string>();
  const elements: SnapshotElement[] = sameElements ? base.elements : [];
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i]!;
    if (seen.has(ref)) return undefined;
    seen.add(ref);
    const move = movedBy[i];
    let el = added.get(ref);
    if (el) {
      if (move) return undefined;
    } else {
      const before = baseByRef.get(ref);
      if (!before) return undefined;
      const patch = patched.get(ref);
      // Only an element taken from the base as it was can have moved.
      if (move && (patch || !before.box)) return undefined;
      el = patch ? applyPatch(before, patch) : before;
    }
    const order = orders[i]!;
    if (move) {
      const box = el.box!;
      el = { ...el, order, box: { x: box.x + move[0], y: box.y + move[1], w: box.w, h: box.h } };
    } else if (el.order !== order) el = { ...el, order };
    elements.push(el);
  }
  for (const ref of added.keys()) if (!seen.has(ref) || baseByRef.has(ref)) return undefined;
  for (const ref of patched.keys()) if (!seen.has(ref) || !baseByRef.has(ref)) return undefined;
  const mergedTexts = texts ?? (textPieces ? applyTexts(base.texts, textPieces, MAX_TEXTS) : base.texts);
  if (!mergedTexts) return undefined;
  const merged: PageSnapshot = { ...rest, forms: lists.forms, structuredData: lists.structuredData, canvases: lists.canvases, elements, texts: mergedTexts };
  if (lists.tables) merged.tables = lists.tables;
  else delete merged.tables;
  if (lists.containers) merged.containers = lists.containers;
  else delete merged.containers;
  return merged;
}

function applyPatch(before: SnapshotElement, patch: SnapshotElementPatch): SnapshotElement {
  const el: Record<string, unknown> = { ...before };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete el[key];
    else el[key] = value;
  }
  return el as unknown as SnapshotElement;
}
