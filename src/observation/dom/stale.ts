import type { Entry, RootState } from './entries.ts';
import type { Pending } from './changes.ts';
import { dom } from './native.ts';

/** From recorded changes to the work an update must do: which entries are stale, which subtrees to walk again. */

const FULL_WALK_MARKERS = new Set(['html', 'body', 'head']);

/**
 * Entries whose cached name or text may be stale: nodes whose text changed and every ancestor
 * entry (names from content, block texts, the control of an enclosing label); elements whose
 * attributes changed and the controls above them; whole subtrees under inherited attributes
 * (details open, fieldset disabled…); and id-ref users.
 */
export function staleSemantics(p: Pending, entryOf: WeakMap<Node, Entry>, idRefUsers: Set<Entry>): Set<Node> {
  const dirty = new Set<Node>();
  for (const top of p.semanticSubtrees) {
    if (dom.nodeType(top) !== 1 || !dom.isConnected(top)) continue;
    const walker = dom.treeWalker(dom.ownerDocument(top)!, top, 0x1);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (entryOf.has(n)) dirty.add(n);
  }
  const seenText = new Set<Node>();
  for (const t of p.touched) {
    for (let n: Node | null = t; n && !seenText.has(n); n = parentOrHost(n)) {
      seenText.add(n);
      if (entryOf.has(n)) dirty.add(n);
      if (dom.nodeType(n) === 1 && dom.localName(n as Element) === 'label') {
        const control = (n as HTMLLabelElement).control;
        if (control) dirty.add(control);
      }
    }
  }
  // An attribute (aria-label, hidden…) of a descendant feeds the name of a control above it, not block texts.
  const seenAttr = new Set<Node>();
  for (const t of p.attributesChanged) {
    if (entryOf.has(t)) dirty.add(t);
    for (let n = parentOrHost(t); n && !seenAttr.has(n); n = parentOrHost(n)) {
      seenAttr.add(n);
      if (entryOf.get(n)?.semantics) dirty.add(n);
    }
  }
  if (p.touched.size === 0 && p.attributesChanged.size === 0) return dirty;
  // aria-labelledby / describedby can point anywhere in the tree.
  for (const e of idRefUsers) {
    if (e.root.alive && entryOf.get(e.node) === e && e.semantics?.usesIdRefs) dirty.add(e.node);
    else idRefUsers.delete(e);
  }
  return dirty;
}

/** Changed subtrees grouped by the tree they live in, without nested duplicates. */
export function dirtyRootsByTree(added: Set<Node>, roots: Map<Node, RootState>): Map<RootState, Node[]> {
  const out = new Map<RootState, Node[]>();
  for (const n of added) {
    if (!dom.isConnected(n)) continue;
    const state = roots.get(dom.rootNode(n));
    if (!state || !state.alive) continue;
    let covered = false;
    for (let a = dom.parentNode(n); a && a !== state.key; a = dom.parentNode(a)) {
      if (added.has(a) && dom.isConnected(a)) {
        covered = true;
        break;
      }
    }
    if (covered) continue;
    const list = out.get(state);
    if (list) list.push(n);
    else out.set(state, [n]);
  }
  return out;
}

/** Nodes with entries inside removed subtrees that are no longer in this tree (moved ones are re-walked where they went). */
export function removedEntries(removed: Set<Node>, state: RootState, entryOf: WeakMap<Node, Entry>): Set<Node> {
  const gone = new Set<Node>();
  for (const top of removed) {
    if (dom.isConnected(top) && dom.rootNode(top) === state.key) continue;
    if (entryOf.has(top)) gone.add(top);
    if (dom.nodeType(top) !== 1) continue;
    const walker = dom.treeWalker(dom.ownerDocument(top) ?? state.doc, top, 0x1 | 0x4);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (entryOf.has(n)) gone.add(n);
  }
  return gone;
}

function parentOrHost(n: Node): Node | null {
  const parent = dom.parentNode(n);
  if (parent) return parent;
  return dom.nodeType(n) === 11 ? ((n as ShadowRoot).host ?? null) : null;
}

/** A change at the top of a tree (html, head, body) is a change to all of it. */
export function isTreeTop(n: Node): boolean {
  return dom.nodeType(n) === 1 && FULL_WALK_MARKERS.has(dom.localName(n as Element));
}
