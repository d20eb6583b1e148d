import type { PageSnapshot, SnapshotElement, SnapshotText } from '../../protocol/snapshot.ts';
import { cleanText } from '../clean-text.ts';
import { blockText } from './block-text.ts';
import type { Entry, EntryText, RootState, Semantics } from './entries.ts';
import type { LiveModel } from './model.ts';
import { dom } from './native.ts';
import { FormCollector, readCanvases, readContractLink, readStructuredData, RowNumbering } from './page-parts.ts';
import { landmarkOf } from './landmark.ts';
import { liveState } from './semantics.ts';
import { SnapshotGeometry } from './snapshot-geometry.ts';
import type { StructuredDataReader } from './structured-data.ts';
import type { VolatileCheck } from './churn.ts';
import type { PopupOpeners } from './openers.ts';
import { WidgetFields } from './widget-fields.ts';

/**
 * Turns the live model into a PageSnapshot: walks the entries in document order (shadow roots
 * and frames at their hosts), reads what changes without mutations (values, checked, focus,
 * geometry — see SnapshotGeometry), and reports an element that did not change as the very same
 * object as last time, which is what lets the content script send deltas.
 */

export interface AssembleInput {
  model: LiveModel;
  structuredData: StructuredDataReader;
  documentToken: string;
  mode: 'full' | 'incremental';
  startedAt: number;
  updateMs: number;
  dirtyRoots: number;
  recomputed: number;
  /** Which texts the page keeps changing on its own (see churn.ts). */
  volatile?: VolatileCheck;
  /** Which control opened which popup (see openers.ts). */
  openers?: PopupOpeners;
}

export function assembleSnapshot(input: AssembleInput): PageSnapshot {
  return new Assembler(input).run();
}

class Assembler {
  private readonly model: LiveModel;
  private readonly geometry: SnapshotGeometry;
  private readonly rows: RowNumbering;
  private readonly forms: FormCollector;
  private readonly blind: Set<string>;
  private readonly widgets: WidgetFields;
  private readonly elements: SnapshotElement[] = [];
  private readonly texts: SnapshotText[] = [];
  private readonly canvasEntries: Entry[] = [];
  private readonly focused: Element | null;
  private order = 0;
  private textChars = 0;
  /** No more texts fit (both limits only grow): the rest of a big page's text entries are passed over. */
  private textsFull = false;
  /** Elements with no landmark around them, for this snapshot (see landmarkOf). */
  private readonly plainAncestors = new Map<Element, boolean>();
  private iframesSkipped = 0;

  constructor(private readonly input: AssembleInput) {
    this.model = input.model;
    this.geometry = new SnapshotGeometry(this.model);
    this.rows = new RowNumbering(this.model);
    this.forms = new FormCollector(this.model);
    this.blind = new Set(this.model.walkSpots);
    this.widgets = new WidgetFields(this.model.limits, this.blind);
    this.focused = deepActiveElement(this.model);
  }

  run(): PageSnapshot {
    const model = this.model;
    // The first geometry read makes the browser finish its pending layout: time it on its own.
    const layoutStart = model.now();
    const topView = this.geometry.view(model.doc);
    const layoutMs = model.now() - layoutStart;
    this.emitRoot(model.top!);
    const containers = this.settleWidgets();
    const snapshot: PageSnapshot = {
      url: dom.doc.url(model.doc),
      title: cleanText(dom.doc.title(model.doc), 1024),
      capturedAt: new Date().toISOString(),
      elements: this.elements,
      forms: this.forms.forms(),
      texts: this.texts,
      structuredData: readStructuredData(model, this.input.structuredData, this.blind),
      canvases: readCanvases(this.canvasEntries, model, this.geometry, this.blind),
      tables: this.rows.tables(this.blind),
      stats: {
        nodes: [...model.roots.values()].reduce((n, r) => n + r.nodeCount, 0),
        interactive: this.elements.length,
        hidden: this.elements.reduce((n, e) => n + (e.visibility === 'visible' ? 0 : 1), 0),
        iframesSkipped: this.iframesSkipped,
        shadowRoots: [...model.roots.values()].filter((r) => r.scope === 'shadow-open' || r.scope === 'shadow-closed').length,
      },
      blindSpots: [],
      containers,
      documentToken: this.input.documentToken,
      viewport: { w: topView.vw, h: topView.vh, scrollX: Math.round(topView.scrollX), scrollY: Math.round(topView.scrollY), pageW: Math.round(topView.pageW), pageH: Math.round(topView.pageH) },
    };
    // One query over the whole document: asked again only after a full walk or a change to a <link>.
    if (model.contractLinkStale) {
      model.contractHref = readContractLink(model);
      model.contractLinkStale = false;
    }
    const contractHref = model.contractHref;
    if (contractHref) snapshot.contractHref = contractHref;
    snapshot.blindSpots = [...this.blind].slice(0, model.limits.maxBlindSpots);
    this.geometry.commit();
    snapshot.timing = {
      mode: this.input.mode,
      captureMs: round2(model.now() - this.input.startedAt),
      updateMs: round2(this.input.updateMs),
      layoutMs: round2(layoutMs),
      dirtyRoots: this.input.dirtyRoots,
      recomputed: this.input.recomputed,
    };
    return snapshot;
  }

  /** Issue 26's fields that need the whole snapshot (widget-fields.ts), and the containers with the control that opened each. */
  private settleWidgets(): NonNullable<PageSnapshot['containers']> {
    this.widgets.finish(this.elements, (el) => this.rows.refOf(el));
    const openers = this.input.openers;
    if (!openers) return this.rows.describe();
    openers.update(
      this.widgets.shown,
      (ref) => this.model.refs.lookup(ref),
      (outer, inner) => dom.contains(outer, inner),
    );
    return this.rows.describe((el) => openers.openedBy(el));
  }

  /** An element, unless a shape over the caps; noted for settleWidgets. */
  private emitEntryElement(entry: Entry): void {
    const shape = entry.semantics!.shape;
    if (shape && !this.widgets.admitShape(shape.drawing)) return;
    const at = this.elements.length;
    this.emitElement(entry);
    if (this.elements.length > at) this.widgets.noteElement(entry, at, this.elements[at]!);
  }

  private emitRoot(root: RootState): void {
    for (const entry of root.entries) {
      try {
        if (entry.semantics) this.emitEntryElement(entry);
        else if (entry.text && !this.textsFull) {
          const at = this.texts.length;
          this.emitText(entry);
          if (this.texts.length > at && entry.container) this.widgets.noteShown(entry.container);
        }
        if (entry.isForm) this.forms.addForm(entry);
        if (entry.isCanvas) this.canvasEntries.push(entry);
        if (entry.crossOrigin) this.iframesSkipped++;
      } catch {
        this.blind.add('element_capture_failed');
      }
      if (entry.child?.alive) this.emitRoot(entry.child);
    }
  }

  private emitElement(entry: Entry): void {
    if (this.elements.length >= this.model.limits.maxElements) {
      this.blind.add('elements_truncated');
      return;
    }
    const el = entry.node as Element;
    const s = entry.semantics!;
    const root = entry.root;
    if (this.emitUnchanged(entry, el, s)) return;
    const { geometry: g, visibility, hidden } = this.geometry.visibility(entry);
    const live = liveState(el, s);
    const focused = el === this.focused;
    const row = this.rows.rowOf(entry);
    const ref = entry.ref ?? this.model.refs.refFor(el);
    const formRef = entry.formEl ? this.model.refs.refFor(entry.formEl) : undefined;
    const offset = this.geometry.frameOffset(root);
    if (s.failed) this.blind.add('accessible_name_failed');
    if (entry.formEl) this.forms.addField(entry.formEl, el, s.tag, s.inputType, ref);

    // Unchanged since the last snapshot: report the same object (no allocation, no rebuild).
    const prev = entry.out;
    if (
      prev &&
      prev.semantics === s &&
      prev.geometry === g &&
      prev.visibility === visibility &&
      prev.value === live.value &&
      prev.check === live.check &&
      prev.focused === focused &&
      prev.container === row?.ref &&
      prev.row === row?.row &&
      prev.formRef === formRef &&
      prev.offsetX === offset.x &&
      prev.offsetY === offset.y
    ) {
      prev.element.order = this.order++;
      this.elements.push(prev.element);
      return;
    }

    // The attribute states as they are (one array less per element), unless live ones join them.
    let states = s.states;
    if (live.check || focused) {
      states = [...s.states];
      if (live.check) states.push(live.check);
      if (focused) states.push('focused');
    }
    const out: SnapshotElement = { ref, role: s.role, name: s.name, states, visibility, tag: s.tag, scope: root.scope };
    if (s.description) out.description = s.description;
    if (live.value !== undefined) out.value = live.value;
    if (s.inputType) out.inputType = s.inputType;
    if (s.href) out.href = s.href;
    if (s.options) out.options = s.options;
    if (root.framePath.length > 0) out.framePath = root.framePath;
    if (!hidden) out.box = this.geometry.pageBox(root, g);
    if (row) out.container = row;
    if (formRef) out.formRef = formRef;
    if (s.inferred) out.inferred = s.inferred.inference;
    out.order = this.order++;
    entry.out = {
      element: out,
      semantics: s,
      geometry: g,
      visibility,
      value: live.value,
      check: live.check,
      focused,
      container: row?.ref,
      row: row?.row,
      formRef,
      offsetX: offset.x,
      offsetY: offset.y,
    };
    this.elements.push(out);
  }

  /**
   * The element as last reported, when nothing it is built from can have changed: the same
   * semantics, no live value or check, not focused now or then, a box that cannot have moved
   * (SnapshotGeometry.unmoved), the same row and form. Skips the visibility and live reads of
   * emitElement, which would give the same; the row and form bookkeeping is done all the same.
   */
  private emitUnchanged(entry: Entry, el: Element, s: Semantics): boolean {
    const prev = entry.out;
    const g = entry.geometry;
    if (prev === undefined || prev.semantics !== s || s.live !== undefined || prev.focused || el === this.focused || g === undefined || prev.geometry !== g || !this.geometry.unmoved(entry, g))
      return false;
    const row = this.rows.rowOf(entry);
    const formRef = entry.formEl ? this.model.refs.refFor(entry.formEl) : undefined;
    if (prev.container !== row?.ref || prev.row !== row?.row || prev.formRef !== formRef) return false;
    if (s.failed) this.blind.add('accessible_name_failed');
    if (entry.formEl) this.forms.addField(entry.formEl, el, s.tag, s.inputType, prev.element.ref);
    prev.element.order = this.order++;
    this.elements.push(prev.element);
    return true;
  }

  /**
   * A text's landmark, read again only when its entry was walked since (it may have moved) or an
   * attribute changed anywhere (a class or label may have made a breadcrumb). Inside a shadow
   * root, always: its host may move without its tree being walked.
   */
  private landmarkOf(entry: Entry): string | undefined {
    const model = this.model;
    const scope = entry.root.scope;
    if (entry.landmarkAt >= entry.walked && entry.landmarkAt >= model.attributesChangedAt && scope !== 'shadow-open' && scope !== 'shadow-closed') return entry.landmark;
    entry.landmark = landmarkOf(entry.node, this.plainAncestors);
    entry.landmarkAt = model.stamp;
    return entry.landmark;
  }

  private emitText(entry: Entry): void {
    const t = entry.text!;
    if (this.texts.length >= this.model.limits.maxTexts || this.textChars >= this.model.limits.maxTextChars) {
      this.blind.add('texts_truncated');
      this.textsFull = true;
      return;
    }
    if (t.lazy) readLazyText(entry, t, this.model.limits.maxTextLength);
    // An empty block (a cell holding only a control) says nothing: no need to know whether it is rendered.
    if (!t.text || entry.root.hostHidden || this.geometry.geometry(entry, false).hidden) return;
    const landmark = this.landmarkOf(entry);
    const row = this.rows.rowOf(entry);
    const volatile = this.input.volatile?.(entry.node, t) === true;
    // Unchanged since the last snapshot: report the same object (like elements, see emitElement).
    const prev = entry.textOut;
    let out: SnapshotText;
    if (prev && prev.source === t && prev.landmark === landmark && prev.container === row?.ref && prev.row === row?.row && prev.volatile === volatile) out = prev.text;
    else {
      out = { text: t.text };
      if (t.role) out.role = t.role;
      if (t.level) out.level = t.level;
      if (t.role === 'heading') out.ref = this.model.refs.refFor(entry.node as Element);
      if (landmark) out.landmark = landmark;
      if (row) out.container = row;
      if (volatile) out.volatile = true;
      entry.textOut = { text: out, source: t, landmark, container: row?.ref, row: row?.row, volatile };
    }
    out.order = this.order++;
    this.textChars += t.text.length;
    this.texts.push(out);
  }
}

/**
 * A block the walk left lazy (EntryText.lazy), read now that a snapshot may report it: in place,
 * as no snapshot has reported this text object yet. (blockText reads what the walk would have gathered.)
 */
function readLazyText(entry: Entry, t: EntryText, max: number): void {
  t.text = blockText(entry.node as Element, max);
  t.lazy = false;
}

/** The focused element, through shadow roots and same-origin frames. */
function deepActiveElement(model: LiveModel): Element | null {
  let active = dom.doc.activeElement(model.doc);
  for (let depth = 0; active && depth < 32; depth++) {
    const child = model.entryOf.get(active)?.child;
    if (!child?.alive) break;
    const next = child.scope === 'iframe' ? dom.doc.activeElement(child.doc) : (child.key as ShadowRoot).activeElement;
    if (!next || next === active) break;
    active = next;
  }
  return active;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
