import type { ElementState, Visibility } from '../protocol/element.ts';

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
}

export interface SnapshotForm {
  ref: string;
  name?: string;
  method?: 'get' | 'post' | 'dialog';
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
  /** Counts for blind-spot reasoning and the LLM rendering's summaries. */
  stats: { nodes: number; interactive: number; hidden: number; iframesSkipped: number; shadowRoots: number };
  /** Things the capture could not do (a cross-origin iframe, a throwing getter, …), snake_case. */
  blindSpots: string[];
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
