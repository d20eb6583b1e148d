import type { SnapshotContainer, SnapshotTable } from '../../protocol/snapshot.ts';
import { cleanText } from '../clean-text.ts';
import type { Entry, RootState } from './entries.ts';
import { LabelIndex } from './fast-labels.ts';
import { LinkTargets } from './link-targets.ts';
import type { StructuredMarks } from './structured-data.ts';
import type { DocView } from './geometry.ts';
import { LIMITS, type Limits } from './limits.ts';
import { dom } from './native.ts';
import { RefRegistry } from './refs.ts';
import { inlineFacts, mergeFacts, ruleCount, scanSheets, type StyleFacts } from './style-scan.ts';
import { CAUTIOUS_HINTS, semanticsOf } from './semantics.ts';
import { renewDrawn } from './svg-shapes.ts';
import { LISTENER_MARKS_FLUSH } from '../../protocol/page-channel-names.ts';
import { blockText } from './block-text.ts';
import { indexTree, killRoot, newRoot, walkSubtree, type WalkContext } from './walker.ts';
import { emptyPending, recordMutations, type Pending } from './changes.ts';
import { dirtyRootsByTree, isTreeTop, removedEntries, staleSemantics } from './stale.ts';

/**
 * The content script's live model of its document. A MutationObserver on every tree it knows
 * (the document, each shadow root, each same-origin iframe document) only records WHAT changed —
 * no work, no timers, nothing while the page is idle. When a snapshot is asked for, `update()`
 * re-walks just the changed subtrees, recomputes names only where text or attributes changed,
 * and splices the result into the ordered entries.
 */

const OBSERVE: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true };

export interface ModelOptions {
  document: Document;
  closedShadowRootOf?: (el: Element) => ShadowRoot | null;
  limits?: Partial<Limits>;
  now?: () => number;
}

export interface UpdateResult {
  mode: 'full' | 'incremental';
  dirtyRoots: number;
  recomputed: number;
}

export class LiveModel {
  readonly refs = new RefRegistry();
  readonly limits: Limits;
  readonly doc: Document;
  readonly now: () => number;
  entryOf = new WeakMap<Node, Entry>();
  roots = new Map<Node, RootState>();
  top: RootState | undefined;
  /** Blind spots found while walking, kept until the next full walk. */
  walkSpots = new Set<string>();
  /** Set when stylesheets or the whole tree changed; the assembler then re-reads all geometry. */
  geometryStale = true;
  /** Viewport and page size of each document at the previous snapshot: a change means everything may have moved. */
  readonly lastViews = new WeakMap<Document, DocView>();
  private pending = emptyPending();
  /** Counts updates (per-update caches compare against it). */
  stamp = 0;
  /** The last update that walked everything or saw an attribute change (landmarks of texts may have changed). */
  attributesChangedAt = 0;
  /**
   * What the last update changed, for re-running hit tests only where something could now cover
   * (or stop covering) an element: `all` after removals, style changes or big changes;
   * `uncovering`: something was removed or had an attribute changed (a cover may be gone from anywhere).
   */
  changed: { all: boolean; nodes: Node[]; uncovering?: boolean } = { all: true, nodes: [] };
  /** Every node the last update saw change (added, attribute, text, parent of a removal): per-container caches check it. */
  touchedLast: Node[] = [];
  /** The agent-contract link as last read (see Assembler), and whether a mutation may have changed it since. */
  contractHref: string | undefined;
  contractLinkStale = true;
  /** Whether the last update touched structured data (JSON-LD scripts, microdata). */
  structuredChanged = true;
  /** Where the top document's structured data is, when the last update was a full walk (its index found it). */
  structuredMarks: StructuredMarks | undefined;
  /** What each table or list said about itself last time, kept while nothing inside it changes. */
  readonly containerCache = new WeakMap<Element, { rows: number; described: SnapshotContainer; table?: SnapshotTable }>();
  /** Each table row's cell texts, kept while nothing inside the row changes. */
  readonly rowTextCache = new WeakMap<Element, string[]>();

  /** Whether anything inside `el` changed in the last update (conservatively yes after a full walk or a big change). */
  changedWithin(el: Element): boolean {
    if (this.changed.all || this.touchedLast.length > 64) return true;
    return this.touchedLast.some((n) => dom.contains(el, n));
  }
  private readonly observer: MutationObserver;
  private readonly closedShadowRootOf?: (el: Element) => ShadowRoot | null;
  private readonly watchedFrames = new WeakSet<Element>();
  private upgradeCandidates = new Set<Element>();
  /** What the stylesheets of the known trees can do (see style-scan.ts); cleared when a stylesheet changes. */
  private styles: StyleFacts | undefined;
  /** Kept across updates; cleared when a mutation touches labels, `for` or `id`. */
  private readonly labels = new LabelIndex();
  /** Entries whose name or description comes from aria-labelledby / describedby (anything may change them). */
  private idRefUsers = new Set<Entry>();
  /** Each document's base URL as the last update used it (top and same-origin frames): links resolve against it, and history.pushState moves it without a mutation. */
  private readonly lastBases = new WeakMap<Document, string>();

  constructor(options: ModelOptions) {
    this.doc = options.document;
    this.limits = { ...LIMITS, ...options.limits };
    this.now = options.now ?? (() => performance.now());
    this.closedShadowRootOf = options.closedShadowRootOf;
    this.observer = new MutationObserver((records) => this.note(records));
  }

  private note(records: MutationRecord[]): void {
    this.pending = recordMutations(this.pending, records, this.roots, this.limits);
  }

  /** Stops observing (the model can no longer be updated incrementally). */
  dispose(): void {
    this.observer.disconnect();
    this.roots.clear();
    this.top = undefined;
  }

  private context(labels: LabelIndex, semanticDirty: Set<Node>): WalkContext {
    return {
      limits: this.limits,
      refs: this.refs,
      closedShadowRootOf: this.closedShadowRootOf,
      entryOf: this.entryOf,
      recycle: false,
      semanticDirty,
      roots: this.roots,
      observeRoot: (root) => {
        try {
          this.observer.observe(root.key, OBSERVE);
        } catch {
          this.walkSpots.add('mutation_observer_unavailable');
        }
      },
      watchFrame: (frame) => this.watchFrame(frame),
      noteIdRefUser: (entry) => this.idRefUsers.add(entry),
      noteUpgradeCandidate: (el) => {
        if (this.upgradeCandidates.size < 1000) this.upgradeCandidates.add(el);
      },
      labels,
      blindSpots: this.walkSpots,
      deadline: this.now() + this.limits.captureBudgetMs,
      now: this.now,
      stamp: this.stamp,
      visited: 0,
      recomputed: 0,
      textEntries: 0,
      textsGathered: 0,
      stopped: false,
      rowContainers: new Map(),
      rowMemo: new Map(),
      styles: { ...this.styleFacts },
      links: new LinkTargets((doc) => this.baseUrlOf(doc)),
      flushMarks,
    };
  }

  /**
   * What the stylesheets of the document and every known shadow root can do (cached until a
   * stylesheet changes); every known tree's style cues are read again on the way.
   */
  get styleFacts(): StyleFacts {
    if (!this.styles) {
      let facts: StyleFacts | undefined;
      for (const root of this.roots.values()) {
        if (!root.alive) continue;
        const sheets = scanSheets(root.key);
        root.cues = sheets.cues;
        if (root.key === this.doc || root.scope !== 'iframe') facts = mergeFacts(facts ?? sheets.facts, mergeFacts(sheets.facts, inlineFacts(root.key)));
      }
      if (!this.roots.has(this.doc)) facts = mergeFacts(facts ?? { pseudoContent: false, hiding: false }, mergeFacts(scanSheets(this.doc).facts, inlineFacts(this.doc)));
      this.styles = facts!;
    }
    return this.styles;
  }

  /**
   * Rules a script inserted into the document's sheets (CSS-in-JS does, without any mutation)
   * may give elements a pointer cursor: the document's style cues are read again when the
   * number of its rules moved.
   */
  private refreshCues(): void {
    const top = this.top;
    if (!top?.alive || ruleCount(this.doc) === top.cues.rules) return;
    top.cues = scanSheets(this.doc).cues;
  }

  /** A frame that loads a new document must be walked again (loads do not mutate the parent). */
  private watchFrame(frame: Element): void {
    if (this.watchedFrames.has(frame)) return;
    this.watchedFrames.add(frame);
    frame.addEventListener('load', () => {
      if (!this.pending.overflow) this.pending.added.add(frame);
    });
  }

  /** Brings the model up to date: a full walk the first time (or when asked), else only what changed. */
  update(forceFull = false): UpdateResult {
    this.stamp++;
    // The main worlds write the listener marks they hold now; their mutations are taken just below.
    flushMarks(this.doc);
    for (const root of this.roots.values()) if (root.alive && root.scope === 'iframe') flushMarks(root.doc);
    this.note(this.observer.takeRecords());
    this.checkUpgrades();
    const p = this.pending;
    this.pending = emptyPending();
    const moved = this.baseUrlsMoved();
    const full = forceFull || p.overflow || !this.top || !this.top.alive || moved;
    if (full || p.styles) {
      this.geometryStale = true;
      this.styles = undefined;
    }
    if (p.restyled) this.geometryStale = true;
    if (!full && !p.styles) this.refreshCues();
    if (full || p.attributesChanged.size > 0) this.attributesChangedAt = this.stamp;
    const changedNodes = [...p.added, ...p.uncovered];
    this.changed = { all: full || p.styles || p.restyled || changedNodes.length > 64, nodes: changedNodes, uncovering: p.uncovered.size > 0 || p.attributesChanged.size > 0 };
    this.touchedLast = full ? [] : [...p.added, ...p.touched, ...p.uncovered, ...p.marked];
    this.structuredChanged = full || p.structured;
    if (full || p.links) this.contractLinkStale = true;
    this.structuredMarks = undefined;
    if (full || p.labels) this.labels.clear();
    if (full || p.flags) for (const root of this.roots.values()) root.flags = undefined;
    const labels = this.labels;
    return labels.run(this.windowsOf(new Set()), () => (full ? this.fullWalk(labels) : this.incremental(labels, p)));
  }

  /**
   * Whether the top document's or a known frame's base URL changed since an update last used it;
   * the current ones are kept (a frame first met during the walk is kept by `baseUrlOf`).
   */
  private baseUrlsMoved(): boolean {
    let moved = false;
    const check = (doc: Document) => {
      const base = dom.doc.baseUri(doc);
      const last = this.lastBases.get(doc);
      if (last !== undefined && last !== base) moved = true;
      this.lastBases.set(doc, base);
    };
    check(this.doc);
    for (const root of this.roots.values()) if (root.scope === 'iframe' && root.alive) check(root.doc);
    return moved;
  }

  /** A document's base URL for this update (read once, then kept for the next update's comparison). */
  private baseUrlOf(doc: Document): string {
    let base = this.lastBases.get(doc);
    if (base === undefined) {
      base = dom.doc.baseUri(doc);
      this.lastBases.set(doc, base);
    }
    return base;
  }

  private windowsOf(into: Set<Window>): Set<Window> {
    const add = (doc: Document) => {
      const w = dom.doc.view(doc);
      if (w) into.add(w);
    };
    add(this.doc);
    for (const root of this.roots.values()) if (root.scope === 'iframe') add(root.doc);
    return into;
  }

  private fullWalk(labels: LabelIndex): UpdateResult {
    // Every old root dies and its entries are cleared: until the walk makes one fresh again (the
    // same object, see recycleEntry), an old entry reads exactly like no entry at all.
    if (this.top) killRoot(this, this.top);
    for (const root of this.roots.values()) killRoot(this, root);
    this.roots.clear();
    this.walkSpots = new Set();
    this.upgradeCandidates = new Set();
    this.idRefUsers = new Set();
    this.observer.disconnect();
    const top = newRoot(this.doc, this.doc, 'document', []);
    this.top = top;
    this.roots.set(this.doc, top);
    // No other tree is known yet: the document's own scan is all of styleFacts.
    const sheets = scanSheets(this.doc);
    top.cues = sheets.cues;
    const index = indexTree(this.doc, sheets.cues);
    top.flags = index.flags;
    this.structuredMarks = index.structured;
    this.styles = mergeFacts(sheets.facts, inlineFacts(this.doc, index.styleMarks));
    const ctx = this.context(labels, new Set());
    ctx.recycle = true;
    ctx.observeRoot(top);
    walkSubtree(ctx, top, this.doc, top.entries, index);
    this.styles = mergeFacts(this.styleFacts, ctx.styles);
    return { mode: 'full', dirtyRoots: 1, recomputed: ctx.recomputed };
  }

  private checkUpgrades(): void {
    if (!this.closedShadowRootOf && this.upgradeCandidates.size === 0) return;
    for (const el of this.upgradeCandidates) {
      if (!dom.isConnected(el)) {
        this.upgradeCandidates.delete(el);
        continue;
      }
      let root: ShadowRoot | null = dom.shadowRoot(el);
      try {
        root ??= this.closedShadowRootOf?.(el) ?? null;
      } catch {
        root = null;
      }
      if (root) {
        this.upgradeCandidates.delete(el);
        this.pending.added.add(el);
      }
    }
  }

  private incremental(labels: LabelIndex, p: Pending): UpdateResult {
    const semanticDirty = staleSemantics(p, this.entryOf, this.idRefUsers);
    // A newly marked element is walked again (it may have become a control: its text is its name now).
    for (const n of p.marked) {
      semanticDirty.add(n);
      p.added.add(n);
    }
    const ctx = this.context(labels, semanticDirty);
    const byRoot = dirtyRootsByTree(p.added, this.roots);
    for (const state of p.removedIn) if (!byRoot.has(state)) byRoot.set(state, []);
    let dirtyRoots = 0;
    const claimed = new Set<Node>();
    for (const [state, nodes] of byRoot) {
      if (!state.alive) continue;
      dirtyRoots += nodes.length;
      const wholeTree = nodes.length > this.limits.maxDirtyRoots || nodes.some((n) => n === state.key || isTreeTop(n));
      if (wholeTree) this.rewalkRoot(ctx, state, claimed);
      else this.spliceSubtrees(ctx, state, nodes, p.removedIn.has(state) ? removedEntries(p.removed, state, this.entryOf) : undefined, claimed);
      if (wholeTree) {
        this.geometryStale = true;
        this.changed.all = true;
      }
    }
    for (const node of semanticDirty) {
      if (claimed.has(node)) continue;
      const entry = this.entryOf.get(node);
      if (!entry || !entry.root.alive) continue;
      refreshEntry(entry);
      if (entry.semantics?.usesIdRefs) this.idRefUsers.add(entry);
      ctx.recomputed++;
    }
    this.styles = mergeFacts(this.styleFacts, ctx.styles);
    return { mode: 'incremental', dirtyRoots, recomputed: ctx.recomputed };
  }

  private rewalkRoot(ctx: WalkContext, state: RootState, claimed: Set<Node>): void {
    const old = state.entries;
    state.entries = [];
    walkSubtree(ctx, state, state.key, state.entries);
    const kept = new Set<Entry>(state.entries);
    for (const e of state.entries) claimed.add(e.node);
    for (const e of old) if (!kept.has(e) && e.child) killRoot(this, e.child);
  }

  /** Re-walks each changed subtree and splices its entries in at their place in tree order. */
  private spliceSubtrees(ctx: WalkContext, state: RootState, nodes: Node[], removed: Set<Node> | undefined, claimed: Set<Node>): void {
    const blocks: Array<{ anchor: Node; entries: Entry[] }> = [];
    const fresh = new Set<Entry>();
    for (const anchor of nodes) {
      const entries: Entry[] = [];
      walkSubtree(ctx, state, anchor, entries);
      for (const e of entries) {
        claimed.add(e.node);
        fresh.add(e);
      }
      blocks.push({ anchor, entries });
    }
    // A text changed inside a block, an attribute of an element without an entry: no entry came or
    // went, so the list stays as it is (no pass over all of a big page's entries).
    if (fresh.size === 0 && (removed === undefined || removed.size === 0)) return;
    const kept: Entry[] = [];
    for (const e of state.entries) {
      const gone = claimed.has(e.node) || (removed !== undefined && removed.has(e.node));
      if (!gone) kept.push(e);
      else if (e.child && !fresh.has(e)) killRoot(this, e.child);
    }
    for (const { anchor, entries } of blocks) {
      if (entries.length === 0) continue;
      kept.splice(insertionIndex(kept, anchor), 0, ...entries);
    }
    state.entries = kept;
  }
}

/** First index whose node does not precede `anchor` (entries hold nothing inside `anchor` at this point). */
function insertionIndex(entries: Entry[], anchor: Node): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // FOLLOWING (4): anchor comes after entries[mid].
    if (dom.comparePosition(entries[mid]!.node, anchor) & 4) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Recomputes one entry's cached semantics or text in place (its subtree did not change). */
function refreshEntry(entry: Entry): void {
  const node = entry.node;
  entry.geometryDirty = true;
  if (dom.nodeType(node) === 3) {
    if (entry.text) entry.text = { text: cleanText((node as Text).data, LIMITS.maxTextLength), role: undefined, level: undefined, lazy: false };
    return;
  }
  const el = node as Element;
  // An inferred control stays what the walk inferred (its marks and class did not change: those are attribute changes, which walk it again).
  if (entry.semantics)
    entry.semantics = entry.semantics.shape
      ? renewDrawn(el, entry.semantics)
      : semanticsOf(el, dom.localName(el), { ...CAUTIOUS_HINTS, inferred: entry.semantics.inferred, cues: entry.root.cues, holder: entry.semantics.holder });
  if (entry.text) entry.text = { ...entry.text, text: blockText(el, LIMITS.maxTextLength), lazy: false };
}

/** Asks the document's main world to write its listener marks now (src/content/main/listener-marks.ts); a page without one ignores it. */
function flushMarks(doc: Document): void {
  try {
    doc.dispatchEvent(new Event(LISTENER_MARKS_FLUSH));
  } catch {
    // A document that is going away: nothing to flush.
  }
}
