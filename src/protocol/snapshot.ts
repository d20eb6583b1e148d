import type { CoveredBy, ElementState, Inference, RangeBounds, ShapeInfo, Visibility } from './element.ts';

/**
 * ARIA live-region roles: a text under one is an announcement (a status line, an alert), which the
 * page side tags with its role and fusion reads apart from ordinary content.
 */
export const LIVE_ROLES: ReadonlySet<string> = new Set(['status', 'alert', 'log', 'marquee', 'timer']);

/**
 * The contract between the two halves of observation:
 * - the page side (src/observation/dom/, run by the isolated content script) captures a
 *   PageSnapshot: what the DOM, the accessibility semantics, the visible text, structured data,
 *   forms and canvases say, with stable element refs;
 * - the fusion side (src/observation/fusion/, pure) turns a PageSnapshot plus network records,
 *   WebMCP tools and adapter output into an ObservedState with provenance, confidence,
 *   conflicts and a semantic state_version.
 * Plain data only: it crosses from the content script to the service worker as a message.
 */

export interface SnapshotElement {
  /** Stable while the element lives (same node → same ref across observations). */
  ref: string;
  /** Computed ARIA role (dom-accessibility-api / explicit role / implicit role). */
  role: string;
  /** Accessible name per the accname spec (dom-accessibility-api). */
  name: string;
  description?: string;
  value?: string;
  states: ElementState[];
  visibility: Visibility;
  /** Lower-case tag name, e.g. `button`. */
  tag: string;
  /** Input type for inputs (`text`, `date`, `checkbox`, …). */
  inputType?: string;
  /** Link target, for links (absolute URL). */
  href?: string;
  /** Ref of the enclosing form, if any. */
  formRef?: string;
  /** Where it lives: `document`, `shadow-open`, `shadow-closed`, `iframe`. */
  scope: 'document' | 'shadow-open' | 'shadow-closed' | 'iframe';
  /** Frame path for same-origin iframes, e.g. [0, 2] (indices of nested iframes); empty for top. */
  framePath?: number[];
  /** Page-pixel bounding box (rounded). */
  box?: { x: number; y: number; w: number; h: number };
  /** Labels of a select's options (bounded). */
  options?: string[];
  /** The repeating structure it sits in (a table row, a list item…), for collapsing and expanding. */
  container?: SnapshotRowRef;
  /** Position in document order among elements and texts (shadow roots and iframes at their host). */
  order?: number;
  /** Set when `role` is Steward's inference from the page's behaviour (listeners, pointer cursor, tabindex…), not its markup. */
  inferred?: Inference;
  /** Visibility `covered`: the element on top at the point a click would land. */
  coveredBy?: CoveredBy;
  /** Bounds of a slider, spinbutton, progress bar or range input. */
  range?: RangeBounds;
  /** Ref of the popup, list, grid or dialog this control opened (aria-controls / aria-owns, or seen appearing after it was used). */
  controls?: string;
  /** An SVG shape: kind, colour names, relative size. */
  shape?: ShapeInfo;
  /** Shown, not operable (an SVG shape without a listener): no action is offered on it. */
  passive?: true;
}

/** Where an element or text sits in a repeating structure: the container's ref and the row ordinal. */
export interface SnapshotRowRef {
  ref: string;
  /** 1-based row among the container's rows; 0 for a header row. */
  row: number;
}

/** A table, list, grid, listbox, menu… whose rows hold elements or texts. */
export interface SnapshotContainer {
  ref: string;
  /** `table`, `grid`, `list`, `listbox`, `menu`, `tablist`, `tree`, … */
  role: string;
  name?: string;
  /** Rows the container has (from the DOM, not only the ones that hold something). */
  rows: number;
  /** Column headers, for tables and grids. */
  columns?: string[];
  /** Ref of the control that opened it (a suggestion list under its textbox, a date grid under its field, a menu under its button). */
  openedBy?: string;
}

/** How a snapshot was produced, for benchmarks and diagnostics. */
interface SnapshotTiming {
  /** `full`: every root walked; `incremental`: only what changed since the previous snapshot. */
  mode: 'full' | 'incremental';
  /** Wall time of the whole capture in the page, in ms. */
  captureMs: number;
  /** Part of it spent bringing the model up to date (walks and re-computation). */
  updateMs: number;
  /**
   * Part of it spent waiting for the browser's own style/layout after the page's last change (the
   * first geometry read pays it; on a big table that is the page's relayout, not observation work).
   */
  layoutMs?: number;
  /** Subtrees re-walked (incremental) and elements whose semantics were recomputed. */
  dirtyRoots: number;
  recomputed: number;
}

export interface SnapshotForm {
  ref: string;
  name?: string;
  method?: 'get' | 'post' | 'dialog';
  /** The markup states its method (`method="get"`): a form without one is a GET only if no script takes its submit, which most do. */
  methodDeclared?: boolean;
  action?: string;
  /** Declarative WebMCP tool name (`toolname` attribute). */
  toolname?: string;
  fieldRefs: string[];
  submitRef?: string;
}

/** One block of visible text with the nearest landmark / heading context. */
export interface SnapshotText {
  text: string;
  /** Ref of the element it belongs to, when that element is interactive or a heading. */
  ref?: string;
  /** `heading`, `status`, `cell`, `paragraph`, … (role of the containing element). */
  role?: string;
  /** Heading level for headings. */
  level?: number;
  /** Position in document order among elements and texts. */
  order?: number;
  /** The repeating structure it sits in (e.g. a table cell's row). */
  container?: SnapshotRowRef;
  /** Accessible name or role of the nearest navigation landmark it sits in (`breadcrumb`, `pagination`), lower-case. */
  landmark?: string;
  /**
   * The page changes this text on its own, again and again (a clock, a countdown, a ticker, a
   * rotating banner, an ad): it is shown, but it is not part of the page's state.
   */
  volatile?: true;
}

/** JSON-LD blocks and microdata items, as parsed objects (size-bounded). */
export interface SnapshotStructuredData {
  kind: 'json-ld' | 'microdata';
  /** schema.org @type, e.g. `Order`. */
  type?: string;
  data: Record<string, unknown>;
}

export interface SnapshotCanvas {
  ref: string;
  box: { x: number; y: number; w: number; h: number };
  /** True when the canvas has a text equivalent (aria-label, fallback content, aria-describedby). */
  hasTextEquivalent: boolean;
  label?: string;
  /** A short hash of its pixels where readable (not tainted); feeds change detection. */
  pixelHash?: string;
  /** True when the pixels could not be read (tainted, WebGL without preserveDrawingBuffer, …). */
  unreadable?: boolean;
}

/** A data table's visible text (bounded): fusion reads line items and totals from it. */
export interface SnapshotTable {
  ref?: string;
  caption?: string;
  /** Column header texts of the first header row. */
  headers: string[];
  /** Body rows' cell texts (trimmed), first rows only. */
  rows: string[][];
  /** Total number of body rows, when more than `rows` holds. */
  rowCount?: number;
}

export interface PageSnapshot {
  url: string;
  title: string;
  /** ISO time the capture finished. */
  capturedAt: string;
  elements: SnapshotElement[];
  forms: SnapshotForm[];
  texts: SnapshotText[];
  structuredData: SnapshotStructuredData[];
  canvases: SnapshotCanvas[];
  /** Data tables (optional; without them fusion reads line items from structured data and network only). */
  tables?: SnapshotTable[];
  /** Counts for blind-spot reasoning and the LLM rendering's summaries. */
  stats: { nodes: number; interactive: number; hidden: number; iframesSkipped: number; shadowRoots: number };
  /** Things the capture could not do (a cross-origin iframe, a throwing getter, …), snake_case. */
  blindSpots: string[];
  /** Tables, lists and other repeating structures that elements and texts point to. */
  containers?: SnapshotContainer[];
  /** Random per document: refs are only meaningful for the document that issued them. */
  documentToken?: string;
  /** Viewport and scrollable page size (CSS px) at capture time. */
  viewport?: { w: number; h: number; scrollX: number; scrollY: number; pageW: number; pageH: number };
  timing?: SnapshotTiming;
  /** The page's `<link rel="agent-contract" href>`, absolute (one, bounded): where its site's contract may be. */
  contractHref?: string;
}

/** A same-origin JSON response the page fetched, observed from the main world (bounded). */
export interface NetworkRecord {
  url: string;
  method: string;
  status: number;
  /** Parsed JSON body, truncated to a size limit; never request bodies. */
  json: unknown;
  truncated: boolean;
  at: string;
}
