import { cleanText } from '../clean-text.ts';
import {
  CONTAINER_SELECTOR,
  CONTENT_HOLDING_ROLES,
  DIALOG_SELECTOR,
  NAMING_ATTRIBUTES_SELECTOR,
  NON_CONTENT_TAGS,
  ROW_SELECTOR,
  STRUCTURAL_ATTRIBUTES_SELECTOR,
  isEditingHostValue,
  isInteractive,
  isNativeControl,
  textBlockKind,
} from './classify.ts';
import { clearEntry, newEntry, recycleEntry, type Entry, type RootState, type Scope } from './entries.ts';
import { BlockTextCollector, blockText } from './block-text.ts';
import { FLAG_SELECTOR, hostIsHidden, rootFlags } from './geometry.ts';
import type { LabelIndex } from './fast-labels.ts';
import type { LinkTargets } from './link-targets.ts';
import type { Limits } from './limits.ts';
import { dom } from './native.ts';
import type { RefRegistry } from './refs.ts';
import { cueBits, inferAt, noteGripRow } from './inferred.ts';
import type { InferredControl } from './infer-control.ts';
import { inlineFacts, mergeFacts, scanSheets, STYLE_MARK_SELECTOR, type StyleCues, type StyleFacts } from './style-scan.ts';
import { semanticsOf } from './semantics.ts';
import { drawingOf, drawnSemantics, SHAPE_TAGS } from './svg-shapes.ts';
import { NO_CUES } from './style-scan.ts';
import { ITEM_SELECTOR, JSON_LD_SELECTOR, TOP_ITEM_SELECTOR, type StructuredMarks } from './structured-data.ts';

/**
 * One TreeWalker pass over a subtree: elements and text nodes, descending into open and closed
 * shadow roots and same-origin iframes (each becomes a child `RootState`). Cheap checks first:
 * most nodes cost a tag-name switch and a few attribute reads; role and accessible name are
 * computed only for interactive elements, and reused from the previous walk unless a mutation
 * made them dirty.
 */

const SHOW_ELEMENT_AND_TEXT = 0x1 | 0x4;
/**
 * Texts read beyond a snapshot's maxTexts before blocks are left lazy (EntryText.lazy): some of
 * those read may be hidden or empty once assembled. A lazy block that is reported after all is read
 * then, so this only decides how much reading the walk does, not what a snapshot says.
 */
const LAZY_MARGIN = 500;
const TEXT_NODE = 3;
const NON_SPACE = /\S/;
/** Built-in elements that may host a shadow root (besides custom elements). */
const SHADOW_HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);

export interface WalkContext {
  limits: Limits;
  refs: RefRegistry;
  /** Open or closed shadow root of an element (chrome.dom.openOrClosedShadowRoot in the extension). */
  closedShadowRootOf?: (el: Element) => ShadowRoot | null;
  entryOf: WeakMap<Node, Entry>;
  /** A full walk: entries of dead roots (all cleared) are made fresh in place instead of replaced. */
  recycle: boolean;
  /** Nodes whose cached semantics / text must be recomputed. */
  semanticDirty: Set<Node>;
  /** Every live root, by key; new child roots are registered here and observed. */
  roots: Map<Node, RootState>;
  observeRoot: (root: RootState) => void;
  watchFrame: (frame: Element) => void;
  /** An entry whose name comes from elsewhere by id (recomputed after any change). */
  noteIdRefUser: (entry: Entry) => void;
  /** A custom element without a shadow root yet: it may attach one when it upgrades (no mutation says so). */
  noteUpgradeCandidate: (el: Element) => void;
  labels: LabelIndex;
  blindSpots: Set<string>;
  deadline: number;
  now: () => number;
  /** This update's number (LiveModel.stamp), stamped on every entry walked. */
  stamp: number;
  /** Running counters for this update. */
  visited: number;
  recomputed: number;
  textEntries: number;
  /**
   * Texts with words this walk read (loose texts, and blocks that were not empty): past a
   * snapshot's worth (plus LAZY_MARGIN for texts that turn out hidden), blocks are left lazy.
   */
  textsGathered: number;
  stopped: boolean;
  /** Each row's container (null: none) and whether the row is in a <thead>. */
  rowContainers: Map<Element, { container: Element; header: boolean } | null>;
  /** Row-like element containing each element (inclusive), memoised along shared ancestors. */
  rowMemo: Map<Element, Element | null>;
  /** What the stylesheets of the trees seen so far can do (generated content, hiding). */
  styles: StyleFacts;
  /** Where links go (resolved once per raw href and base URL). */
  links: LinkTargets;
  /** Asks a document's main world to write the listener marks it holds (before the document is indexed). */
  flushMarks: (doc: Document) => void;
}

export function newRoot(key: Document | ShadowRoot, doc: Document, scope: Scope, framePath: number[], parent?: RootState, host?: Element): RootState {
  return { key, doc, scope, framePath, parent, host, hostHidden: false, textCovered: false, entries: [], nodeCount: 0, alive: true, cues: NO_CUES };
}

/** What one native query over a whole tree says before it is walked (see `indexTree`). */
export interface TreeIndex {
  /** Elements with one of STRUCTURAL_ATTRIBUTES_SELECTOR's attributes, or matching one of the tree's style cues. */
  special: Set<Element>;
  /** The CUE_* bits of the special elements that match a style cue (a cursor or `:hover` rule). */
  cues: Map<Element, number>;
  flags: NonNullable<RootState['flags']>;
  /** The elements scanStyles looks at (STYLE_MARK_SELECTOR). */
  styleMarks: Element[];
  /** What StructuredDataReader reads (JSON-LD scripts, top-level microdata items). */
  structured: StructuredMarks;
}

const INDEX_SELECTOR = `${STRUCTURAL_ATTRIBUTES_SELECTOR},${FLAG_SELECTOR},${STYLE_MARK_SELECTOR},${JSON_LD_SELECTOR},${ITEM_SELECTOR}`;

/**
 * One querySelectorAll over a whole tree instead of six (structural attributes, the root's
 * flags, style marks, JSON-LD scripts, microdata items, the tree's style cues): each query is a pass over every element of the tree. Matches are few on
 * most pages; each is sorted into its lists by the same selectors and attribute reads.
 */
export function indexTree(key: Document | ShadowRoot, cues: StyleCues = NO_CUES): TreeIndex {
  const found = dom.queryAll(key, `${INDEX_SELECTOR},${cues.query}`);
  const special = new Set<Element>();
  const cueOf = new Map<Element, number>();
  const styleMarks: Element[] = [];
  const flags = { a11yHidden: false, ariaDisabled: false };
  const structured: StructuredMarks = { scripts: [], items: [] };
  for (let i = 0; i < found.length; i++) {
    const el = found[i]!;
    if (dom.matches(el, STRUCTURAL_ATTRIBUTES_SELECTOR)) special.add(el);
    if (dom.matches(el, cues.query)) {
      const bits = cueBits(el, cues);
      if (bits !== 0) {
        special.add(el);
        cueOf.set(el, (cueOf.get(el) ?? 0) | bits);
        noteGripRow(el, bits, special, cueOf);
      }
    }
    if (dom.matches(el, STYLE_MARK_SELECTOR)) styleMarks.push(el);
    if (dom.attr(el, 'aria-disabled') === 'true') flags.ariaDisabled = true;
    if (dom.attr(el, 'aria-hidden') === 'true' || dom.has(el, 'inert')) flags.a11yHidden = true;
    if (dom.matches(el, JSON_LD_SELECTOR)) structured.scripts.push(el);
    else if (dom.matches(el, TOP_ITEM_SELECTOR)) structured.items.push(el);
  }
  return { special, cues: cueOf, flags, styleMarks, structured };
}

/** The special elements of a subtree and their style cues (`indexTree`'s first two lists), for a walk that did not start at a tree's top. */
interface Known {
  special: Set<Element>;
  cues: Map<Element, number>;
}

/** Walks `start` and its descendants into `out`, in tree order (`known`: its special elements, when already queried). */
export function walkSubtree(ctx: WalkContext, root: RootState, start: Node, out: Entry[], known?: Known): void {
  const walker = dom.treeWalker(root.doc, start, SHOW_ELEMENT_AND_TEXT);
  const startType = dom.nodeType(start);
  const fromTop = startType === 9 || startType === 11;
  const above = fromTop ? null : dom.parentElement(start);
  const scope = new WalkScope(ctx, initialSkip(ctx, start, root), above ? rowOf(ctx, above) : null, insideControl(ctx, start, root));
  const { special, cues } = known ?? specialElements(start, root.cues);
  const ariaDisabled = rootFlags(root).ariaDisabled;
  // Tree order from nextNode() (comments and the like are skipped by the walker's filter), with
  // enter / leave: the elements entered and not yet left are a stack, and a node whose parent is
  // not on top of it closes the elements above its parent. (One nextNode and one parentNode per
  // node cost about half of firstChild / nextSibling / parentNode on the walker.)
  const open: Node[] = [];
  let node: Node | null = fromTop ? walker.nextNode() : start;
  let elements = 0;
  while (node) {
    if ((++ctx.visited & 1023) === 0 && (ctx.visited > ctx.limits.maxNodes || ctx.now() > ctx.deadline)) {
      ctx.blindSpots.add(ctx.visited > ctx.limits.maxNodes ? 'node_limit_reached' : 'capture_time_budget_exceeded');
      ctx.stopped = true;
      break;
    }
    const parent = dom.parentNode(node);
    while (open.length > 0 && open[open.length - 1] !== parent) {
      open.pop();
      scope.leave();
    }
    if (dom.nodeType(node) === TEXT_NODE) {
      if (scope.gathering) scope.text((node as Text).data);
      if (!scope.active) visitText(ctx, root, node as Text, out, scope.row);
    } else {
      elements++;
      const el = node as Element;
      const localName = dom.localName(el);
      const isSpecial = special.has(el);
      // ROW_SELECTOR is `tr`, `li`, `dialog` or [role=…] selectors: an element without a role (not special) can only match by tag.
      scope.enter(localName, localName === 'tr' || localName === 'li' || localName === 'dialog' || (isSpecial && dom.matches(el, ROW_SELECTOR)) ? el : undefined);
      open.push(el);
      try {
        visitElement(ctx, root, el, localName, out, scope, isSpecial, ariaDisabled, isSpecial ? (cues.get(el) ?? 0) : 0);
      } catch {
        ctx.blindSpots.add('element_capture_failed');
      }
    }
    if (ctx.stopped) break;
    node = walker.nextNode();
  }
  if (!ctx.stopped) for (let i = open.length; i > 0; i--) scope.leave();
  scope.finish();
  if (start === root.key) root.nodeCount = elements;
}

/**
 * Elements of the subtree with a role, tabindex, contenteditable, onclick, aria-live, a listener
 * mark… or a style cue: one native query instead of several attribute reads per element. (The
 * naming and state attributes of NAMING_ATTRIBUTES_SELECTOR are matched per interactive element,
 * see `specialForSemantics`.)
 */
function specialElements(start: Node, cues: StyleCues): Known {
  const type = dom.nodeType(start);
  const known: Known = { special: new Set(), cues: new Map() };
  if (type !== 1 && type !== 9 && type !== 11) return known;
  const sort = (el: Element) => {
    if (dom.matches(el, STRUCTURAL_ATTRIBUTES_SELECTOR)) known.special.add(el);
    if (dom.matches(el, cues.query)) {
      const bits = cueBits(el, cues);
      if (bits !== 0) {
        known.special.add(el);
        known.cues.set(el, (known.cues.get(el) ?? 0) | bits);
        noteGripRow(el, bits, known.special, known.cues);
      }
    }
  };
  const found = dom.queryAll(start, `${STRUCTURAL_ATTRIBUTES_SELECTOR},${cues.query}`);
  for (let i = 0; i < found.length; i++) sort(found[i]!);
  if (type === 1) sort(start as Element);
  return known;
}

/** Whether an interactive element has any of the structural or naming attributes (`structural`: it has one of the first five). */
function specialForSemantics(el: Element, structural: boolean): boolean {
  return structural || dom.matches(el, NAMING_ATTRIBUTES_SELECTOR);
}

const COVERS = 1;
const OPENS_BLOCK = 2;
const CONTROL = 4;

/**
 * What the open elements of a walk say about the text under them: whether it is already covered
 * (a control's name, a block's text, a <script>: not page text of its own), and the text block
 * being gathered (see BlockTextCollector). One level per open element, pushed on `enter` and
 * popped on `leave`.
 */
class WalkScope {
  /** Per open element: COVERS / OPENS_BLOCK flags, and the block collector's token. */
  private readonly flags: number[] = [];
  private readonly tokens: number[] = [];
  /** Per open element: the row-like element containing it (inclusive). */
  private readonly rows: Array<Element | null> = [];
  private depth = 0;
  private covered: number;
  /** Open elements that are controls: inside one, nothing is a control of its own by inference. */
  private controls: number;
  /** The text block being gathered (blocks do not nest: inside one, no other opens). */
  private block: { collector: BlockTextCollector; entry: Entry; level: number } | undefined;
  /** Reused for every block of the walk. */
  private readonly spare = { collector: new BlockTextCollector(), entry: undefined as unknown as Entry, level: 0 };

  constructor(
    /** Counts the blocks read that were not empty. */
    private readonly counts: Pick<WalkContext, 'textsGathered'>,
    /** The walk starts inside covered text (an ancestor of its start covers it). */
    inherited: boolean,
    /** The row containing the walk's start, when it starts inside one. */
    private readonly outerRow: Element | null,
    /** The walk starts inside a control. */
    inControl: boolean,
  ) {
    this.covered = inherited ? 1 : 0;
    this.controls = inControl ? 1 : 0;
  }

  /** Whether an element entered now is inside a control (a control entered before it is still open). */
  get inControl(): boolean {
    return this.controls > 0;
  }

  /** The element just entered is a control. */
  control(): void {
    this.flags[this.depth - 1]! |= CONTROL;
    this.controls++;
  }

  /** The row-like element (table row, list item…) containing the element entered last, or the text just reached. */
  get row(): Element | null {
    return this.depth > 0 ? this.rows[this.depth - 1]! : this.outerRow;
  }

  get active(): boolean {
    return this.covered > 0;
  }

  /** `row`: the element itself, when it is row-like. */
  enter(localName: string, row: Element | undefined): void {
    const block = this.block;
    this.tokens[this.depth] = block ? block.collector.enter(localName, this.depth - block.level - 1) : 0;
    this.rows[this.depth] = row ?? this.row;
    this.flags[this.depth] = 0;
    this.depth++;
  }

  /** A text block is open: text nodes feed it. */
  get gathering(): boolean {
    return this.block !== undefined;
  }

  text(data: string): void {
    const block = this.block;
    if (block) block.collector.text(data, this.depth - block.level - 1);
  }

  /** The element just entered covers the text under it. */
  cover(): void {
    this.flags[this.depth - 1]! |= COVERS;
    this.covered++;
  }

  /** The element just entered is a text block whose text is gathered as the walk passes it. */
  openBlock(entry: Entry, el: Element, max: number): void {
    this.flags[this.depth - 1]! |= OPENS_BLOCK;
    const block = this.spare;
    block.collector.reset(el, max);
    block.entry = entry;
    block.level = this.depth - 1;
    this.block = block;
  }

  leave(): void {
    this.depth--;
    const flags = this.flags[this.depth]!;
    if (flags & COVERS) this.covered--;
    if (flags & CONTROL) this.controls--;
    const block = this.block;
    if (flags & OPENS_BLOCK) {
      if (block) {
        const text = block.collector.result();
        block.entry.text!.text = text;
        if (text) this.counts.textsGathered++;
      }
      this.block = undefined;
    } else if (block) block.collector.leave(this.tokens[this.depth]!);
  }

  /** The walk ended: a block still open (the walk stopped inside it) is read on its own. */
  finish(): void {
    const block = this.block;
    if (block && this.depth > block.level) block.entry.text!.text = blockText(block.collector.block, block.collector.maxLength);
    this.block = undefined;
  }
}

/** Whether text at `start` is already covered by an ancestor (a control, a text block, a non-content element). */
function initialSkip(ctx: WalkContext, start: Node, root: RootState): boolean {
  if (root.textCovered) return true;
  for (let n = dom.parentNode(start); n && n !== root.key; n = dom.parentNode(n)) {
    if (dom.nodeType(n) !== 1) continue;
    const e = ctx.entryOf.get(n);
    if ((e?.semantics && !holdsContent(e.semantics)) || e?.text || NON_CONTENT_TAGS.has(dom.localName(n as Element))) return true;
  }
  return false;
}

/** A focusable list, table or grid: the text inside it is page content, not its name (a jQuery UI suggestion list's suggestions). */
function holdsContent(s: { role: string }): boolean {
  return CONTENT_HOLDING_ROLES.has(s.role);
}

/**
 * Whether `start` lies inside a control (an ancestor's entry has semantics, not a holder's), across shadow roots
 * up to their hosts: a clickable span inside a button is that button's part, not a control.
 */
function insideControl(ctx: WalkContext, start: Node, root: RootState): boolean {
  let state: RootState | undefined = root;
  let n: Node | null = start === root.key ? null : dom.parentNode(start);
  for (let i = 0; i < 512 && state; i++) {
    if (!n || n === state.key) {
      if (state.scope === 'iframe' || !state.host) return false;
      n = state.host;
      state = state.parent;
    }
    const semantics = dom.nodeType(n) === 1 ? ctx.entryOf.get(n)?.semantics : undefined;
    if (semantics !== undefined && !semantics.holder && !semantics.passive && !holdsContent(semantics)) return true;
    n = dom.parentNode(n);
  }
  return false;
}

function visitText(ctx: WalkContext, root: RootState, node: Text, out: Entry[], row: Element | null): void {
  const data = node.data;
  if (!NON_SPACE.test(data)) return;
  if (ctx.textEntries >= ctx.limits.maxTexts + 200) {
    ctx.blindSpots.add('texts_truncated');
    return;
  }
  ctx.textEntries++;
  ctx.textsGathered++;
  let entry = ctx.entryOf.get(node);
  if (!entry || entry.root !== root || ctx.semanticDirty.has(node) || !entry.text) {
    const recycled = entry !== undefined && ctx.recycle && !entry.root.alive;
    entry = recycled ? recycleEntry(entry!, root) : newEntry(node, root);
    entry.text = { text: cleanText(data, ctx.limits.maxTextLength), role: undefined, level: undefined, lazy: false };
    placeInRow(ctx, entry, row);
    if (!recycled) ctx.entryOf.set(node, entry);
  } else entry.geometryDirty = true;
  entry.walked = ctx.stamp;
  out.push(entry);
}

let current: Element;
const readAttr = (name: string): string | null => dom.attr(current, name);

/** Not interactive; a control by tag or role; interactive by tabindex, contenteditable or onclick alone. */
const NOT_INTERACTIVE = 0;
const NATIVE = 1;
const FOCUSABLE_OR_HANDLED = 2;

function interactiveHere(el: Element, localName: string, special: boolean): number {
  current = el;
  const parentName = localName === 'summary' ? dom.parentElement(el) : null;
  const parentLocalName = parentName ? dom.localName(parentName) : undefined;
  if (!isInteractive(localName, readAttr, parentLocalName, special)) return NOT_INTERACTIVE;
  const kind = !special || isNativeControl(localName, readAttr, parentLocalName, special) ? NATIVE : FOCUSABLE_OR_HANDLED;
  if (!special) return kind;
  if (!isEditingHostValue(readAttr('contenteditable'))) return kind;
  // Inside an editing host, an element is part of that editor, not a control of its own —
  // unless it is interactive for another reason.
  const parent = dom.parentElement(el);
  if (!parent || !dom.isContentEditable(parent as HTMLElement)) return kind;
  return isInteractive(localName, (n) => (n === 'contenteditable' ? null : dom.attr(el, n)), parentLocalName) ? kind : NOT_INTERACTIVE;
}

/**
 * The control Steward infers `el` is (issue 26), for an element without a control's tag or role
 * that the index found (an attribute, a style cue): unchanged since the last walk, the last answer.
 */
function inferHere(ctx: WalkContext, root: RootState, el: Element, localName: string, special: boolean, cue: number, scope: WalkScope, shadow: ShadowRoot | undefined): InferredControl | undefined {
  if (scope.inControl) return undefined;
  const cached = ctx.entryOf.get(el);
  if (cached !== undefined && cached.root === root && !ctx.semanticDirty.has(el) && cached.semantics) return cached.semantics.inferred;
  // Inside an editor, elements are its content.
  const parent = dom.parentElement(el);
  if (parent && dom.namespace(parent) === HTML_NS && dom.isContentEditable(parent as HTMLElement)) return undefined;
  return inferAt({ el, localName, cueBits: cue, cues: root.cues, special, shadow });
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';

function shadowRootOf(ctx: WalkContext, el: Element, localName: string): { root: ShadowRoot; closed: boolean } | undefined {
  // attachShadow (and declarative shadow DOM) accept only these hosts: any other element has no
  // shadow root to find, open or closed (a browser's own, of <input> or <select>, is never exposed).
  const custom = localName.includes('-');
  if (!custom && !SHADOW_HOSTS.has(localName)) return undefined;
  const open = dom.shadowRoot(el);
  if (open) return { root: open, closed: false };
  let root: ShadowRoot | null = null;
  if (ctx.closedShadowRootOf) {
    try {
      root = ctx.closedShadowRootOf(el);
    } catch {
      root = null;
    }
  }
  if (root) return { root, closed: true };
  if (custom) ctx.noteUpgradeCandidate(el);
  return undefined;
}

/** The drawing an SVG shape is reported in (svg-shapes.ts), when it is one. */
function shapeDrawing(ctx: WalkContext, el: Element): Element | undefined {
  return drawingOf(ctx, el, ctx.limits.maxShapesPerDrawing, () => ctx.blindSpots.add('svg_shapes_truncated'));
}

function visitElement(ctx: WalkContext, root: RootState, el: Element, localName: string, out: Entry[], skip: WalkScope, special: boolean, ariaDisabled: boolean, cue: number): void {
  const shadow = shadowRootOf(ctx, el, localName);
  const kind = interactiveHere(el, localName, special);
  const drawing = SHAPE_TAGS.has(localName) ? shapeDrawing(ctx, el) : undefined;
  // A shape something reacts to stays a shape (svg-shapes.ts says it is live): its kind, paint and size name it, not an inferred role.
  const inferred = kind !== NATIVE && special && !drawing ? inferHere(ctx, root, el, localName, special, cue, skip, shadow?.root) : undefined;
  const interactive = kind !== NOT_INTERACTIVE || inferred !== undefined;
  current = el;
  const block = !skip.active && !interactive && !drawing ? textBlockKind(localName, readAttr, special) : undefined;
  const isForm = localName === 'form';
  const isCanvas = localName === 'canvas';
  const isFrame = localName === 'iframe' || localName === 'frame';
  // Text inside a control is its name; inside a block it is the block's text; inside <script>… it is not content.
  // What it holds may be controls of their own: an inferred holder (a drop target, a hover menu's
  // title), or an element focusable or handled (tabindex, onclick) that Steward could not take for a
  // control itself (a focusable list whose items the page's styles make clickable).
  const holder = inferred ? inferred.holder : kind === FOCUSABLE_OR_HANDLED;
  // A drop target's text is the page's.
  const coversText = (interactive && inferred?.role !== 'region') || drawing !== undefined || block !== undefined || NON_CONTENT_TAGS.has(localName);
  if (!(interactive || drawing || block || isForm || isCanvas || isFrame || shadow)) {
    if (coversText) skip.cover();
    return;
  }

  const cached = ctx.entryOf.get(el);
  const reuse = cached !== undefined && cached.root === root && !ctx.semanticDirty.has(el);
  const recycled = !reuse && cached !== undefined && ctx.recycle && !cached.root.alive;
  const entry: Entry = reuse ? cached : recycled ? recycleEntry(cached!, root) : newEntry(el, root);
  entry.geometryDirty = true;
  if (!reuse && !recycled) ctx.entryOf.set(el, entry);

  if (drawing) {
    const next = drawnSemantics(
      el,
      localName,
      drawing,
      reuse ? entry.semantics : undefined,
      interactive
        ? () => semanticsOf(el, localName, { special: specialForSemantics(el, special), ariaDisabled, pseudo: ctx.styles.pseudoContent, links: ctx.links, inferred, cues: root.cues, holder })
        : undefined,
    );
    if (next !== entry.semantics) {
      entry.semantics = next;
      ctx.recomputed++;
      if (next.usesIdRefs) ctx.noteIdRefUser(entry);
      placeInRow(ctx, entry, skip.row);
    }
  } else if (!interactive) entry.semantics = undefined;
  else if (!reuse || !entry.semantics) {
    entry.semantics = semanticsOf(el, localName, { special: specialForSemantics(el, special), ariaDisabled, pseudo: ctx.styles.pseudoContent, links: ctx.links, inferred, cues: root.cues, holder });
    ctx.recomputed++;
    if (entry.semantics.usesIdRefs) ctx.noteIdRefUser(entry);
    entry.formEl = formOf(el, localName) ?? undefined;
    placeInRow(ctx, entry, skip.row);
  }
  let gather = false;
  if (!block) entry.text = undefined;
  else {
    ctx.textEntries++;
    if (!reuse || !entry.text) {
      // The text is gathered as the walk passes the block's nodes (WalkScope.openBlock below),
      // unless the walk already read more texts than a snapshot carries (see EntryText.lazy).
      const lazy = ctx.textsGathered >= ctx.limits.maxTexts + LAZY_MARGIN;
      entry.text = { text: '', role: block.role, level: block.level, lazy };
      gather = !lazy;
      placeInRow(ctx, entry, skip.row);
    }
  }
  if (interactive || drawing || isForm || isCanvas) entry.ref = ctx.refs.refFor(el);
  entry.isForm = isForm || undefined;
  entry.isCanvas = isCanvas || undefined;
  // A focusable list, table or grid holds page content and may hold controls of its own.
  const holds = interactive && holdsContent(entry.semantics!) && !NON_CONTENT_TAGS.has(localName);
  if (coversText && !holds) skip.cover();
  if (interactive && !holder && !holds) skip.control();
  if (gather) skip.openBlock(entry, el, ctx.limits.maxTextLength);
  entry.walked = ctx.stamp;
  out.push(entry);

  // A shadow tree under a control (or inside one) renders that control's text: it is its name, not page text.
  if (shadow) enterChildRoot(ctx, root, entry, shadow.root, root.doc, shadow.closed ? 'shadow-closed' : 'shadow-open', root.framePath, skip.active);
  else if (isFrame) enterFrame(ctx, root, entry, el as HTMLIFrameElement);
  else if (entry.child) {
    killRoot(ctx, entry.child);
    entry.child = undefined;
  }
}

const FORM_ASSOCIATED = new Set(['button', 'input', 'select', 'textarea', 'output', 'fieldset', 'object']);

/** The control's form (only form-associated elements have one; a <form> itself could be clobbered). */
function formOf(el: Element, localName: string): Element | null {
  if (!FORM_ASSOCIATED.has(localName)) return null;
  const form = (el as HTMLInputElement).form;
  return form && typeof form === 'object' ? form : null;
}

/** The row-like element containing `el` (or `el` itself), where a walk starts: one `matches` per element, shared by siblings. */
function rowOf(ctx: WalkContext, el: Element): Element | null {
  const known = ctx.rowMemo.get(el);
  if (known !== undefined) return known;
  let row: Element | null;
  // ROW_SELECTOR is `tr`, `li`, `dialog` or a [role=…] selector: without a role attribute only the tag name can match.
  const name = dom.localName(el);
  if (name === 'tr' || name === 'li' || name === 'dialog' || (dom.has(el, 'role') && dom.matches(el, ROW_SELECTOR))) row = el;
  else {
    const parent = dom.parentElement(el);
    row = parent ? rowOf(ctx, parent) : null;
  }
  ctx.rowMemo.set(el, row);
  return row;
}

/** A row that is a dialog (tell table rows and list items apart by their tag: no selector match for thousands of rows). */
function isDialog(row: Element): boolean {
  const name = dom.localName(row);
  if (name === 'dialog') return true;
  return name !== 'tr' && name !== 'li' && dom.matches(row, DIALOG_SELECTOR);
}

/** The entry's row-like ancestor (table row, list item…; `row`, from the walk) and its container, for collapsing repetition. */
function placeInRow(ctx: WalkContext, entry: Entry, row: Element | null): void {
  if (!row) {
    entry.row = entry.container = undefined;
    return;
  }
  let place = ctx.rowContainers.get(row);
  if (place === undefined) {
    const parent = dom.parentElement(row);
    // A dialog is its own container (its content, one row); any other row sits in the nearest container around it.
    const container = isDialog(row) ? row : parent ? dom.closest(parent, CONTAINER_SELECTOR) : null;
    place = container ? { container, header: parent !== null && dom.localName(parent) === 'thead' } : null;
    ctx.rowContainers.set(row, place);
  }
  if (!place) {
    entry.row = entry.container = undefined;
    return;
  }
  entry.row = row;
  entry.container = place.container;
  entry.headerRow = place.header;
}

function enterChildRoot(ctx: WalkContext, parent: RootState, entry: Entry, key: Document | ShadowRoot, doc: Document, scope: Scope, framePath: number[], textCovered = false): void {
  let child = entry.child;
  const hostHidden = parent.hostHidden || hostIsHidden(entry.node as Element, scope === 'iframe');
  if (child && child.key === key && child.alive) {
    // Unchanged root: its own mutations keep it current; only the host side may have changed.
    child.hostHidden = hostHidden;
    child.textCovered = textCovered;
    return;
  }
  if (child) killRoot(ctx, child);
  child = newRoot(key, doc, scope, framePath, parent, entry.node as Element);
  // (For an iframe, key is its document.)
  if (scope === 'iframe') ctx.flushMarks(doc);
  const sheets = scanSheets(key);
  child.cues = sheets.cues;
  const index = indexTree(key, sheets.cues);
  child.flags = index.flags;
  ctx.styles = mergeFacts(ctx.styles, mergeFacts(sheets.facts, inlineFacts(key, index.styleMarks)));
  child.hostHidden = hostHidden;
  child.textCovered = textCovered;
  entry.child = child;
  ctx.roots.set(key, child);
  ctx.observeRoot(child);
  walkSubtree(ctx, child, key, child.entries, index);
}

function enterFrame(ctx: WalkContext, parent: RootState, entry: Entry, frame: HTMLIFrameElement): void {
  ctx.watchFrame(frame);
  const doc = dom.contentDocument(frame);
  if (!doc || parent.framePath.length >= ctx.limits.maxFrameDepth) {
    ctx.blindSpots.add(doc ? 'iframe_too_deep' : 'cross_origin_iframe');
    if (entry.child) killRoot(ctx, entry.child);
    entry.child = undefined;
    entry.crossOrigin = !doc;
    return;
  }
  entry.crossOrigin = false;
  const index = Array.prototype.indexOf.call(dom.queryAll(parent.doc, 'iframe,frame'), frame);
  enterChildRoot(ctx, parent, entry, doc, doc, 'iframe', [...parent.framePath, index]);
}

/**
 * A root that left the page: forget it and everything under it. Its entries are cleared (they may
 * stay in `entryOf` until their nodes are collected, and then read like no entry at all).
 */
export function killRoot(ctx: Pick<WalkContext, 'roots'>, root: RootState): void {
  root.alive = false;
  if (ctx.roots.get(root.key) === root) ctx.roots.delete(root.key);
  for (const e of root.entries) {
    if (e.child) killRoot(ctx, e.child);
    clearEntry(e);
  }
  root.entries = [];
}
