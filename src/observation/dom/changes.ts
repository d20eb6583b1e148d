import { LISTENER_MARK_ATTRIBUTE } from '../../protocol/listener-marks.ts';
import type { RootState } from './entries.ts';
import { HOVER_ATTRIBUTE } from './hover-chain.ts';
import type { Limits } from './limits.ts';
import { dom } from './native.ts';

/**
 * What changed since the last snapshot, as the MutationObserver reported it: just nodes and flags,
 * collected cheaply inside the page's mutation delivery; the model interprets them on update.
 */

/** Attributes whose change alters the states or names of descendants (details open, fieldset disabled…). */
const INHERITED_SEMANTICS = new Set(['open', 'disabled', 'aria-disabled', 'hidden', 'aria-hidden', 'inert']);

export interface Pending {
  /** Subtrees to walk again (added nodes, attribute targets, reloaded frames, upgraded hosts). */
  added: Set<Node>;
  /** Nodes whose text or children changed: they and their ancestors' names and texts are stale. */
  touched: Set<Node>;
  /** Elements whose attributes changed: they and the controls named from their content are stale. */
  attributesChanged: Set<Node>;
  /** Roots that lost nodes, and the nodes they lost. */
  removedIn: Set<RootState>;
  removed: Set<Node>;
  /** Elements whose changed attribute (open, disabled…) changes the states or names of everything inside. */
  semanticSubtrees: Set<Node>;
  /** Parents of removed elements: whatever was under them may be uncovered now. */
  uncovered: Set<Node>;
  /** A stylesheet changed: every element's visibility may have. */
  styles: boolean;
  /** Labels, `for` or ids changed: the label index is stale. */
  labels: boolean;
  /** Elements were added or aria-hidden / inert / aria-disabled changed: per-tree flags are stale. */
  flags: boolean;
  /** JSON-LD or microdata may have changed. */
  structured: boolean;
  /** A `<link>` came, went or changed (the agent-contract link may have). */
  links: boolean;
  /** Too much changed to track: walk everything again. */
  overflow: boolean;
  /**
   * Elements whose listener marks the main world wrote (issue 26): each is walked again and its
   * semantics recomputed, nothing else (the mark names no other element). Not counted towards
   * `overflow`: one flush may mark many elements, and that is no reason to walk everything.
   */
  marked: Set<Node>;
  /** Steward moved its emulated hover (hover-chain.ts): the page's `:hover` styles may show or hide anything. */
  restyled: boolean;
}

export const emptyPending = (): Pending => ({
  added: new Set(),
  touched: new Set(),
  attributesChanged: new Set(),
  removedIn: new Set(),
  removed: new Set(),
  uncovered: new Set(),
  semanticSubtrees: new Set(),
  styles: false,
  labels: false,
  flags: false,
  structured: false,
  links: false,
  overflow: false,
  marked: new Set(),
  restyled: false,
});

/**
 * Adds mutation records to `p`; runs inside the page's mutation delivery, so it only collects
 * nodes. Returns `p`, or a fresh overflowing record when too much changed to track.
 */
export function recordMutations(p: Pending, records: MutationRecord[], roots: Map<Node, RootState>, limits: Limits): Pending {
  if (p.overflow) return p;
  for (const r of records) {
    const target = r.target;
    if (r.type === 'childList') {
      for (const n of r.addedNodes) {
        p.added.add(n);
        if (isStyleNode(n)) p.styles = true;
        if (dom.nodeType(n) === 1) {
          if (hasFlaggedAttributes(n as Element)) p.flags = true;
          if (touchesLabels(n as Element)) p.labels = true;
          if (!p.structured && holdsStructuredData(n as Element)) p.structured = true;
          if (!p.links && holdsLink(n as Element)) p.links = true;
        }
      }
      if (!p.structured && withinStructuredData(target)) p.structured = true;
      if (!p.labels && (r.addedNodes.length > 0 || r.removedNodes.length > 0) && dom.nodeType(target) === 1 && dom.closest(target as Element, 'label')) p.labels = true;
      if (r.removedNodes.length > 0) {
        const state = roots.get(dom.rootNode(target));
        if (state) p.removedIn.add(state);
        for (const n of r.removedNodes) {
          p.removed.add(n);
          if (isStyleNode(n)) p.styles = true;
          if (dom.nodeType(n) === 1 && touchesLabels(n as Element)) p.labels = true;
          if (!p.structured && dom.nodeType(n) === 1 && holdsStructuredData(n as Element)) p.structured = true;
          if (!p.links && dom.nodeType(n) === 1 && holdsLink(n as Element)) p.links = true;
          // A removed element may have covered something: where it was, inside its parent, must be hit-tested again.
          if (dom.nodeType(n) === 1) p.uncovered.add(target);
        }
      }
      p.touched.add(target);
      if (isStyleNode(target)) p.styles = true;
    } else if (r.type === 'attributes') {
      if (r.attributeName === LISTENER_MARK_ATTRIBUTE) {
        p.marked.add(target);
        continue;
      }
      if (r.attributeName === HOVER_ATTRIBUTE) {
        p.restyled = true;
        continue;
      }
      p.added.add(target);
      p.attributesChanged.add(target);
      const name = r.attributeName;
      if (name !== null && INHERITED_SEMANTICS.has(name)) p.semanticSubtrees.add(target);
      if (!p.structured && ((name !== null && name.startsWith('item')) || withinStructuredData(target))) p.structured = true;
      if (dom.localName(target as Element) === 'link') p.links = true;
      if (name === 'for' || name === 'id') p.labels = true;
      else if (name === 'aria-hidden' || name === 'inert' || name === 'aria-disabled') p.flags = true;
    } else {
      p.touched.add(target);
      const parent = dom.parentNode(target);
      if (parent && isStyleNode(parent)) p.styles = true;
      if (!p.structured && parent && withinStructuredData(parent)) p.structured = true;
    }
  }
  const tooMany = limits.maxDirtyRoots * 16;
  if (p.added.size > limits.maxDirtyRoots * 4 || p.touched.size > tooMany || p.attributesChanged.size > tooMany || p.removed.size > tooMany) {
    return { ...emptyPending(), overflow: true };
  }
  return p;
}

const FLAGGED = '[aria-hidden="true"],[inert],[aria-disabled="true"]';
function hasFlaggedAttributes(el: Element): boolean {
  return dom.matches(el, FLAGGED) || dom.queryOne(el, FLAGGED) !== null;
}

/** A label, or a labelable control with an id (a `<label for>` elsewhere may now point at it). */
const LABEL_PARTS = 'label,input[id],select[id],textarea[id],button[id],meter[id],output[id],progress[id]';
function touchesLabels(el: Element): boolean {
  return dom.matches(el, LABEL_PARTS) || dom.queryOne(el, LABEL_PARTS) !== null;
}

const STRUCTURED = 'script[type="application/ld+json" i],[itemscope],[itemprop]';
/** An added or removed subtree that carries JSON-LD or microdata. */
function holdsStructuredData(el: Element): boolean {
  return dom.matches(el, STRUCTURED) || dom.queryOne(el, STRUCTURED) !== null;
}
/** A change inside a JSON-LD script or a microdata item. */
function withinStructuredData(n: Node): boolean {
  return dom.nodeType(n) === 1 && dom.closest(n as Element, STRUCTURED) !== null;
}

function holdsLink(el: Element): boolean {
  return dom.localName(el) === 'link' || dom.queryOne(el, 'link') !== null;
}

function isStyleNode(n: Node): boolean {
  if (dom.nodeType(n) !== 1) return false;
  const name = dom.localName(n as Element);
  return name === 'style' || (name === 'link' && /stylesheet/i.test(dom.attr(n as Element, 'rel') ?? ''));
}
