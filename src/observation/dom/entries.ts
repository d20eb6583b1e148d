import type { CoveredBy, ElementState, RangeBounds, ShapeKind } from '../../protocol/element.ts';
import type { SnapshotElement, SnapshotText } from '../../protocol/snapshot.ts';
import type { InferredControl } from './infer-control.ts';
import type { StyleCues } from './style-scan.ts';

/**
 * The live model's data: one `RootState` per tree scope (the document, each shadow root, each
 * same-origin iframe document), each holding its interesting nodes as `Entry`s in tree order.
 * Entries cache what is expensive to compute (role, accessible name, text) until a mutation
 * says it may have changed; what changes without mutations (values, focus, geometry) is read
 * again when a snapshot is assembled.
 */

export type Scope = SnapshotElement['scope'];

export interface RootState {
  /** The document or shadow root. */
  key: Document | ShadowRoot;
  doc: Document;
  scope: Scope;
  framePath: number[];
  /** Shadow host or iframe element (absent for the top document). */
  host?: Element;
  parent?: RootState;
  /** aria-hidden / inert / hidden frame on the host side: everything inside is hidden. */
  hostHidden: boolean;
  /** The host is (inside) a control or a text block: the tree's text belongs to that, not to the page. */
  textCovered: boolean;
  entries: Entry[];
  /** Elements walked in this root the last time it was walked in full. */
  nodeCount: number;
  alive: boolean;
  /** Whether the tree has any aria-hidden / inert / aria-disabled at all, so most elements skip those ancestor checks. */
  flags?: { a11yHidden: boolean; ariaDisabled: boolean };
  /** What the tree's stylesheets say about interactivity (cursor and `:hover` rules), read with its styles. */
  cues: StyleCues;
}

/** What the walk knows of an SVG shape (svg-shapes.ts) until a mutation says otherwise: its kind, its paint, its drawing. */
export interface ShapeStyle {
  kind: ShapeKind;
  fill?: string;
  stroke?: string;
  /** The `<svg>` it is drawn in: sizes are relative to its other shapes. */
  drawing: Element;
  /** A control by its markup (a role, a tabindex), drawn as a shape. */
  control?: true;
}

/** Role, name and the rest of what is read from attributes and text (cached). */
export interface Semantics {
  role: string;
  name: string;
  description?: string;
  tag: string;
  inputType?: string;
  href?: string;
  options?: string[];
  /** States that only change with a mutation (attributes). Live ones are read per snapshot. */
  states: ElementState[];
  /** Whether the name depends on other elements by id (aria-labelledby / describedby / label[for]). */
  usesIdRefs: boolean;
  /** The control kind whose value/checked state is read live. */
  live?: 'value' | 'check' | 'select' | 'editable' | 'range';
  failed?: boolean;
  /** A password / card / one-time-code field: its value is never reported. */
  secret?: boolean;
  /** A single select's last read selectedIndex and the value it gave (see liveState). */
  selected?: { index: number; value: string | undefined };
  /** Bounds of a slider, spinbutton or range input. */
  range?: RangeBounds;
  /** An SVG shape's kind and paint (its size, against the other shapes of its drawing, is decided per snapshot). */
  shape?: ShapeStyle;
  /** A shape nothing reacts to (no listener mark, no pointer cursor): shown, not operable. */
  passive?: true;
  /** aria-controls / aria-owns ids: the popup it controls, resolved to a container per snapshot. */
  controlsIds?: string;
  /** The role is Steward's inference from the page's behaviour (issue 26): which, and from what. */
  inferred?: InferredControl;
  /**
   * Interactive, yet what it holds may be controls of their own (inferred inside it): a focusable
   * list whose items the page's styles make clickable, a drop target, a hover menu's title.
   */
  holder?: boolean;
}

export interface Geometry {
  hidden: boolean;
  /** Viewport-relative rect at capture, converted to page coordinates of its own document. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Scroll of its document when read, to convert back to the viewport. */
  scrollX: number;
  scrollY: number;
}

interface ReportedElement {
  element: SnapshotElement;
  semantics: Semantics;
  geometry: Geometry;
  visibility: SnapshotElement['visibility'];
  value: string | undefined;
  check: string | undefined;
  focused: boolean;
  container: string | undefined;
  row: number | undefined;
  formRef: string | undefined;
  offsetX: number;
  offsetY: number;
}

/** A text as last reported (Entry.textOut) and what it said then. */
interface ReportedText {
  text: SnapshotText;
  source: NonNullable<Entry['text']>;
  landmark: string | undefined;
  container: string | undefined;
  row: number | undefined;
  volatile: boolean;
}

/** What a text entry says (one object shape for blocks and loose texts alike). */
export interface EntryText {
  text: string;
  role?: string;
  level?: number;
  /**
   * A block the walk did not read: it had already read more texts than a snapshot carries (the rest
   * of a big page's cells), so `text` is read when a snapshot first reports the block (see Assembler).
   */
  lazy: boolean;
}

/** A fresh entry with every field present, so all entries share one object shape (fast property access). */
export function newEntry(node: Element | Text, root: RootState): Entry {
  return {
    node,
    root,
    ref: undefined,
    semantics: undefined,
    text: undefined,
    formEl: undefined,
    isForm: undefined,
    isCanvas: undefined,
    child: undefined,
    crossOrigin: undefined,
    row: undefined,
    container: undefined,
    headerRow: undefined,
    geometry: undefined,
    geometryDirty: true,
    hit: undefined,
    cover: undefined,
    out: undefined,
    textOut: undefined,
    walked: 0,
    landmark: undefined,
    landmarkAt: -1,
  };
}

/**
 * An entry of a root that is gone (after a full walk: every old entry), made a fresh one for
 * `node` in `root`: the same object, so a full walk does not allocate (and the garbage collector
 * does not copy) thousands of new entries, nor grow a new map of them.
 */
export function recycleEntry(entry: Entry, root: RootState): Entry {
  clearEntry(entry);
  entry.root = root;
  return entry;
}

/** Forgets everything an entry knew (it then reads like no entry at all: no semantics, no text, no child). Its node's ref stays: a ref is its element's for good. */
export function clearEntry(entry: Entry): void {
  entry.semantics = undefined;
  entry.text = undefined;
  entry.formEl = undefined;
  entry.isForm = undefined;
  entry.isCanvas = undefined;
  entry.child = undefined;
  entry.crossOrigin = undefined;
  entry.row = undefined;
  entry.container = undefined;
  entry.headerRow = undefined;
  entry.geometry = undefined;
  entry.geometryDirty = true;
  entry.hit = undefined;
  entry.cover = undefined;
  entry.out = undefined;
  entry.textOut = undefined;
  entry.landmark = undefined;
  entry.landmarkAt = -1;
}

export interface Entry {
  node: Element | Text;
  root: RootState;
  /** The element's ref (RefRegistry), once the walk issued it: read here instead of looked up per snapshot. */
  ref: string | undefined;
  /** Interactive element: cached semantics. */
  semantics?: Semantics;
  /** Text block (element) or loose text (text node). */
  text?: EntryText;
  /** The element's form (interactive controls), for form field lists. */
  formEl?: Element;
  isForm?: boolean;
  isCanvas?: boolean;
  /** Shadow root or iframe document hosted here. */
  child?: RootState;
  /** An iframe whose document Steward cannot read (another origin). */
  crossOrigin?: boolean;
  /** Row-like ancestor and its container, for collapsing repetition. */
  row?: Element;
  container?: Element;
  headerRow?: boolean;
  geometry?: Geometry;
  /** Geometry must be read again before the next snapshot. */
  geometryDirty: boolean;
  /** Last hit test at the centre (undefined: not tested / centre outside the viewport). */
  hit?: boolean;
  /** With `hit` false: what lies on top (absent: nothing nameable, e.g. clipped away by its container). */
  cover?: CoveredBy;
  /** The element as last reported, with what it was built from: reused while nothing changed. */
  out?: ReportedElement;
  /** The text as last reported, with what it was built from: reused while nothing changed. */
  textOut?: ReportedText;
  /** The update (LiveModel.stamp) that last walked this entry: it may have moved since `landmarkAt`. */
  walked: number;
  /** A text's navigation landmark (see landmark.ts), as read in update `landmarkAt`. */
  landmark: string | undefined;
  landmarkAt: number;
}
