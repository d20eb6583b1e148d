/**
 * The elements Steward itself puts into a page (its indicator's host): the observation never reads
 * them and a change to them is not the page's own (activity.ts), so showing who acts on a page
 * changes neither what an agent is told nor the page's state_version.
 */
const own = new WeakSet<Node>();

export function markOwn(node: Node): void {
  own.add(node);
}

export function isOwn(node: Node): boolean {
  return own.has(node);
}

/** A mutation that only adds or removes Steward's own elements, or changes one of them. */
export function ownMutation(r: MutationRecord): boolean {
  if (own.has(r.target)) return true;
  if (r.type !== 'childList') return false;
  const added = r.addedNodes;
  const removed = r.removedNodes;
  if (added.length + removed.length === 0) return false;
  for (let i = 0; i < added.length; i++) if (!own.has(added[i]!)) return false;
  for (let i = 0; i < removed.length; i++) if (!own.has(removed[i]!)) return false;
  return true;
}
