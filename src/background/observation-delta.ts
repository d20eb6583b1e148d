import type { SnapshotDelta } from '../protocol/messages.ts';
import type { PageSnapshot, SnapshotElement } from '../observation/snapshot.ts';

/**
 * Rebuilds a full PageSnapshot from the previous one and a delta (pure). Returns undefined when
 * the delta does not fit its base — a ref it cannot resolve, a ref twice, a changed element it
 * does not list — so the caller asks for a full snapshot instead of trusting a half-merge.
 * The base is never modified: an element whose position changed is copied.
 */
export function applyDelta(base: PageSnapshot, baseByRef: ReadonlyMap<string, SnapshotElement>, delta: SnapshotDelta): PageSnapshot | undefined {
  const { elementRefs, elementOrders, changed, ...rest } = delta;
  if (elementRefs.length !== elementOrders.length) return undefined;
  if (base.documentToken === undefined || base.documentToken !== delta.documentToken) return undefined;
  const changedByRef = new Map(changed.map((e) => [e.ref, e]));
  const seen = new Set<string>();
  const elements: SnapshotElement[] = [];
  for (let i = 0; i < elementRefs.length; i++) {
    const ref = elementRefs[i]!;
    if (seen.has(ref)) return undefined;
    seen.add(ref);
    let el = changedByRef.get(ref) ?? baseByRef.get(ref);
    if (!el) return undefined;
    const order = elementOrders[i]!;
    if (el.order !== order) el = { ...el, order };
    elements.push(el);
  }
  for (const ref of changedByRef.keys()) if (!seen.has(ref)) return undefined;
  return { ...rest, elements };
}
