/**
 * How the topmost element at a point relates to the element being hit-tested, across shadow trees
 * (pure: the tree is read through `ComposedTree`, so tests can build one by hand).
 *
 * `elementFromPoint` retargets: from a shadow root it returns the node in that tree, or a node of
 * an outer tree (the shadow host, slotted light-DOM content) when that is what is on top. So the
 * element counts as hit (`on`) when the topmost element is:
 * - the element, or rendered inside it in the flat tree (its descendants, nested shadow hosts, and
 *   light-DOM content slotted into a slot inside it);
 * - a shadow host of the trees the element is in (the host draws its shadow content: `<button
 *   part="base">` inside `<sl-button>`, or its directly slotted text hit through the host);
 * - light-DOM content of such a host whose slot script cannot see (a closed shadow root).
 * `around`: an ordinary ancestor is on top (the point fell in a gap of the element). Anything else
 * (`elsewhere`) is on top of it: an overlay, or other content of the same component.
 */

export type HitRelation = 'on' | 'around' | 'elsewhere';

export interface ComposedTree<N> {
  /** The slot a node is rendered in, when script can see it (null in a closed shadow root). */
  assignedSlot(node: N): N | null;
  parent(node: N): N | null;
  /** The host when `node` is a shadow root, else null. */
  hostOf(node: N): N | null;
}

/** Longest walk up a tree: deeper pages are not hit-tested more precisely, only more slowly. */
const MAX_DEPTH = 512;

export function hitRelation<N>(hit: N, el: N, tree: ComposedTree<N>): HitRelation {
  if (hit === el) return 'on';
  // The element's shadow-including ancestors, and which of them are hosts of the trees it is in.
  const ancestors = new Set<N>();
  const hosts = new Set<N>();
  for (let n = tree.parent(el), depth = 0; n !== null && depth < MAX_DEPTH; depth++) {
    const host = tree.hostOf(n);
    if (host !== null) hosts.add(host);
    n = host ?? n;
    ancestors.add(n);
    n = tree.parent(n);
  }
  if (hosts.has(hit)) return 'on';
  // Up the flat tree from the hit: does it reach the element?
  for (let n: N | null = hit, depth = 0; n !== null && depth < MAX_DEPTH; depth++) {
    if (n === el) return 'on';
    const slot = tree.assignedSlot(n);
    if (slot !== null) {
      n = slot;
      continue;
    }
    const p = tree.parent(n);
    if (p === null) break;
    const host = tree.hostOf(p);
    if (host !== null) {
      // Left a shadow tree of the element's hosts without passing the element: other content of that component.
      if (hosts.has(host)) break;
      n = host;
      continue;
    }
    // Light-DOM content of a host the element is inside, rendered through a slot script cannot see.
    if (hosts.has(p)) return 'on';
    n = p;
  }
  return ancestors.has(hit) ? 'around' : 'elsewhere';
}
