import type { CoveredBy, Visibility } from '../../protocol/element.ts';
import type { SnapshotElement } from '../../protocol/snapshot.ts';
import type { Entry, Geometry, RootState } from './entries.ts';
import { docView, hitsItself, NOT_RENDERED, readGeometry, rootFlags, type DocView } from './geometry.ts';
import type { LiveModel } from './model.ts';
import { dom } from './native.ts';
import { classifyVisibility, hitPoint } from './visibility.ts';
import { hitPoints } from './hit-points.ts';
import { blankets, clipBoxes, clipKindAt, clipsItself, type ClipBox } from './clip.ts';
import { describeCover, dismissControl, type CoverDescription } from './cover.ts';

/**
 * Geometry for one snapshot. Reads only where things may have moved: everything after a resize
 * or a stylesheet change, or when a sample shows that a scroll or page-size change moved things;
 * otherwise just changed entries, entries in (or, after a scroll, previously in) the viewport —
 * they get hit-tested — and entries that were hidden (CSS :hover and friends can show them
 * without a mutation). Boxes far from any change can therefore lag a layout shift the sample
 * missed; an executor re-reads geometry before acting anyway.
 */

const MAX_HIDDEN_RECHECKS = 3_000;
/** Elements re-read to decide whether a scroll or page-size change moved things. */
const LAYOUT_SAMPLES = 24;

type Rect = { left: number; top: number; width: number; height: number };
const ORIGIN = Object.freeze({ x: 0, y: 0 });

export class SnapshotGeometry {
  private readonly views = new Map<Document, DocView>();
  /** The document `view` answered last, its view, and whether it is in freshDocs, movedDocs, scrolledDocs (read per entry). */
  private lastDoc: Document | undefined;
  private lastView: DocView | undefined;
  private lastFresh = false;
  private lastMoved = false;
  private lastScrolled = false;
  /** The last document asked is as it was at the previous snapshot: not fresh, moved or scrolled, and the same page size. */
  private lastSettled = false;
  /** Everything is re-read: styles changed, the viewport was resized, or a full walk. */
  private readonly freshDocs = new Set<Document>();
  /**
   * A sample showed that things moved (content above them changed): every box is re-read, but
   * whether a text is rendered at all does not depend on where it is, so texts are not.
   */
  private readonly movedDocs = new Set<Document>();
  /** Scrolled since the last snapshot: what is in the viewport changed, and may be covered differently. */
  private readonly scrolledDocs = new Set<Document>();
  private readonly frameOffsets = new Map<RootState, { x: number; y: number }>();
  private readonly frameVisibility = new Map<RootState, Visibility>();
  private changedRects: Array<{ doc: Document | null; left: number; top: number; right: number; bottom: number }> | undefined;
  private hitTests = 0;
  private hiddenRechecks = 0;
  /** Covers named in this snapshot: by the element on top, and by the element that stands for the cover. */
  private readonly coverAtHit = new Map<Element, CoverDescription>();
  private readonly covers = new Map<Element, CoveredBy>();
  /** Each ancestor's overflow clipping, read once per snapshot (covered elements share their ancestors). */
  private readonly clipMemo = new Map<Element, ClipBox | null>();

  constructor(private readonly model: LiveModel) {}

  view(doc: Document): DocView {
    // Nearly every entry is the top document's: one comparison instead of a map lookup per entry.
    if (doc === this.lastDoc) return this.lastView!;
    let v = this.views.get(doc);
    if (!v) {
      v = docView(doc);
      this.views.set(doc, v);
      const last = this.model.lastViews.get(doc);
      if (this.model.geometryStale || !last || last.vw !== v.vw || last.vh !== v.vh) this.freshDocs.add(doc);
      else if (last.scrollX !== v.scrollX || last.scrollY !== v.scrollY) {
        this.scrolledDocs.add(doc);
        this.validateLayout(doc, v);
      } else if (last.pageW !== v.pageW || last.pageH !== v.pageH) this.validateLayout(doc, v);
    }
    this.lastDoc = doc;
    this.lastView = v;
    this.lastFresh = this.freshDocs.has(doc);
    this.lastMoved = this.movedDocs.has(doc);
    this.lastScrolled = this.scrolledDocs.has(doc);
    const before = this.model.lastViews.get(doc);
    this.lastSettled = !this.lastFresh && !this.lastMoved && !this.lastScrolled && before !== undefined && before.pageW === v.pageW && before.pageH === v.pageH;
    return v;
  }

  /** Remembers the views for the next snapshot's comparisons. */
  commit(): void {
    this.model.geometryStale = false;
    for (const [doc, view] of this.views) this.model.lastViews.set(doc, view);
  }

  /**
   * After a scroll or a change of page size, most elements usually stay where they were (page
   * coordinates do not move with scrolling; appending a row does not move the rows above). Re-read
   * a sample spread over the document; if any moved, re-read every box (if one was hidden, everything).
   */
  private validateLayout(doc: Document, view: DocView): void {
    const sample: Entry[] = [];
    for (const root of this.model.roots.values()) {
      if (root.doc !== doc) continue;
      for (const e of root.entries) if (e.semantics && e.geometry && !e.geometry.hidden) sample.push(e);
    }
    const step = Math.max(1, Math.floor(sample.length / LAYOUT_SAMPLES));
    for (let i = 0; i < sample.length; i += step) {
      const e = sample[i]!;
      const g = e.geometry!;
      const now = readGeometry(e.node as Element, view, false, true);
      if (now.hidden) {
        // Not a move: something was hidden, and texts may have gone with it.
        this.freshDocs.add(doc);
        return;
      }
      if (Math.abs(now.x - g.x) > 1 || Math.abs(now.y - g.y) > 1 || Math.abs(now.w - g.w) > 1 || Math.abs(now.h - g.h) > 1) {
        this.movedDocs.add(doc);
        return;
      }
    }
  }

  /** Cached geometry when it cannot have moved, fresh otherwise (see the file comment). */
  geometry(entry: Entry, withRect: boolean): Geometry {
    const view = this.view(entry.root.doc);
    const g = entry.geometry;
    const fresh =
      !g ||
      entry.geometryDirty ||
      this.lastFresh ||
      (withRect && this.lastMoved) ||
      (g.hidden && this.hiddenRechecks++ < MAX_HIDDEN_RECHECKS) ||
      (withRect && (inViewport(g, view) || (entry.hit !== undefined && this.lastScrolled)));
    if (!fresh) return g;
    const el = dom.nodeType(entry.node) === 1 ? (entry.node as Element) : dom.parentElement(entry.node);
    const a11y = withRect && entry.semantics !== undefined && rootFlags(entry.root).a11yHidden;
    const next = el ? readGeometry(el, view, a11y, withRect, this.model.styleFacts.hiding) : NOT_RENDERED;
    entry.geometry = next;
    entry.geometryDirty = false;
    return next;
  }

  /**
   * Whether an interactive entry of the top document reads as it did at the previous snapshot
   * without reading anything: its page settled (see lastSettled), its box `g` kept and rendered,
   * outside the viewport and not hit-tested then (no cover to re-test), so `visibility` would give
   * the same box and visibility. Most of a big page's elements, in an incremental snapshot.
   */
  unmoved(entry: Entry, g: Geometry): boolean {
    if (entry.root.parent !== undefined || entry.geometryDirty || g.hidden || entry.hit !== undefined) return false;
    const view = this.view(entry.root.doc);
    return this.lastSettled && !inViewport(g, view);
  }

  /**
   * Visibility of an interactive entry: fresh geometry, a hit test where something may have changed, the frame it is in;
   * `cover` names what lies on top of a covered one (absent: nothing nameable, e.g. clipped away).
   */
  visibility(entry: Entry): { geometry: Geometry; visibility: Visibility; hidden: boolean; cover: CoveredBy | undefined } {
    const root = entry.root;
    const view = this.view(root.doc);
    const geometryWasDirty = entry.geometryDirty || !entry.geometry;
    const g = this.geometry(entry, true);
    const hidden = g.hidden || root.hostHidden;
    let hits: boolean | undefined;
    let cover: CoveredBy | undefined;
    if (!hidden && g.w * g.h >= 1 && inViewport(g, view)) {
      const vp = { left: g.x - view.scrollX, top: g.y - view.scrollY, width: g.w, height: g.h };
      const point = hitPoint(vp, { w: view.vw, h: view.vh });
      if (point && (entry.hit === undefined || geometryWasDirty || this.mayHaveUncovered(entry) || this.mayHaveChangedCover(root.doc, vp))) {
        if (this.hitTests++ < this.model.limits.maxHitTests) {
          hits = hitsItself(entry.node as Element, root.key, point.x, point.y) && this.frameChainHits(root, point.x, point.y);
          if (!hits) ({ hits, cover } = this.reachElsewhere(entry, vp, view, entry.cover));
        }
      } else if (point) {
        hits = entry.hit;
        cover = entry.cover;
      }
    }
    entry.hit = hits;
    entry.cover = hits === false ? cover : undefined;
    let visibility = classifyVisibility({ hidden, box: g, page: { w: view.pageW, h: view.pageH }, hitsItself: hits });
    if (visibility === 'visible') visibility = this.frameVisibilityOf(root);
    return { geometry: g, visibility, hidden, cover: visibility === 'covered' ? entry.cover : undefined };
  }

  /**
   * The centre of the element is not its own: the other sample points a person could press (the
   * act side tries the same, hit-points.ts). One that hits: reachable. None: if it clips itself
   * away, or every point lies outside a box that clips it (overflow hidden), nothing covers it that could be dismissed;
   * outside a scrolling box, scrolling that box reaches it; else the element on top is the cover,
   * named (and kept as the same object while it reads the same, `previous`).
   */
  private reachElsewhere(entry: Entry, vp: Rect, view: DocView, previous: CoveredBy | undefined): { hits: boolean; cover?: CoveredBy } {
    const el = entry.node as Element;
    const root = entry.root;
    const points = hitPoints(vp, { vw: view.vw, vh: view.vh });
    const centre = points[0]!;
    const top = dom.elementFromPoint(root.key, centre.x, centre.y);
    if (top) coverTops.set(entry, top);
    else coverTops.delete(entry);
    // Under one plain box that spans all of it (a modal's backdrop, a banner over a row) no other point can be its own.
    if (!(top && blankets(top, vp))) {
      for (let i = 1; i < points.length; i++) {
        if (this.hitTests++ >= this.model.limits.maxHitTests) return { hits: false };
        const p = points[i]!;
        if (hitsItself(el, root.key, p.x, p.y) && this.frameChainHits(root, p.x, p.y)) return { hits: true };
      }
    }
    if (clipsItself(el, vp)) return { hits: false };
    const clips = clipBoxes(el, this.clipMemo);
    let coverAt: { x: number; y: number } | undefined;
    for (const p of points) {
      const clip = clipKindAt(clips, p.x, p.y);
      if (clip === 'scroll') return { hits: true };
      if (clip === undefined) coverAt ??= p;
    }
    if (!coverAt) return { hits: false };
    const hit = coverAt === centre ? top : dom.elementFromPoint(root.key, coverAt.x, coverAt.y);
    // On top in its own document, under something in a parent one: no cover this tree can name.
    if (!hit || hit === el || dom.contains(el, hit)) return { hits: false };
    const cover = this.coverOf(hit, el);
    return { hits: false, cover: previous && sameCover(previous, cover) ? previous : cover };
  }

  /** The cover's role, name and the ref to clear it by (its own, when it is a control, else its dismiss control's), once per cover per snapshot. */
  private coverOf(hit: Element, covered: Element): CoveredBy {
    let d = this.coverAtHit.get(hit);
    // The climb stops below any ancestor of the covered element: a cached cover around it is not its cover.
    if (!d || dom.contains(d.el, covered)) {
      d = describeCover(hit, covered);
      this.coverAtHit.set(hit, d);
    }
    let c = this.covers.get(d.el);
    if (!c) {
      c = { role: d.role, name: d.name };
      const control = this.reported(d.el) ? d.el : dismissControl(d.el, (x) => this.reported(x));
      if (control) c.ref = this.model.refs.refFor(control);
      this.covers.set(d.el, c);
    }
    return c;
  }

  /** Whether the observation reports `el` as an operable element (it has a ref an agent can use). */
  private reported(el: Element): boolean {
    const e = this.model.entryOf.get(el);
    return e !== undefined && e.root.alive && e.semantics !== undefined && !e.semantics.passive;
  }

  /**
   * A covered element is tested again when what lay on top of it at its centre may have gone: it
   * left the tree, or it (or an element around it) changed an attribute (a class that hides it) —
   * from anywhere on the page, which the changed nodes' boxes need not show (a fixed banner
   * removed from a narrow parent). Style changes and big changes test everything again anyway.
   */
  private mayHaveUncovered(entry: Entry): boolean {
    if (entry.hit !== false) return false;
    const changed = this.model.changed;
    if (changed.all) return true;
    if (!changed.uncovering) return false;
    const top = coverTops.get(entry);
    return !top || !dom.isConnected(top) || changed.nodes.some((n) => n === top || dom.contains(n, top));
  }

  /**
   * Whether something that changed since the last snapshot overlaps this viewport rect (then the
   * element may have become covered or uncovered). Style changes, big changes and view changes
   * count as changing everything.
   */
  private mayHaveChangedCover(doc: Document, r: Rect): boolean {
    const changed = this.model.changed;
    if (changed.all || this.freshDocs.has(doc) || this.movedDocs.has(doc) || this.scrolledDocs.has(doc)) return true;
    if (!this.changedRects) {
      this.changedRects = [];
      for (const n of changed.nodes) {
        const el = dom.nodeType(n) === 1 ? (n as Element) : dom.parentElement(n);
        if (!el || !dom.isConnected(el)) continue;
        const rect = dom.rect(el);
        this.changedRects.push({ doc: dom.ownerDocument(el), left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom });
      }
    }
    return this.changedRects.some((c) => c.doc !== doc || (c.left < r.left + r.width && c.right > r.left && c.top < r.top + r.height && c.bottom > r.top));
  }

  /** Page coordinates in the top document, for an element of any (same-origin) frame. */
  pageBox(root: RootState, g: Geometry): NonNullable<SnapshotElement['box']> {
    const view = this.view(root.doc);
    const off = this.frameOffset(root);
    const top = this.view(this.model.doc);
    return { x: Math.round(g.x - view.scrollX + off.x + top.scrollX), y: Math.round(g.y - view.scrollY + off.y + top.scrollY), w: Math.round(g.w), h: Math.round(g.h) };
  }

  /** Where a root's viewport sits in the top viewport (one object per root and snapshot). */
  frameOffset(root: RootState): { x: number; y: number } {
    if (!root.parent) return ORIGIN;
    let off = this.frameOffsets.get(root);
    if (off) return off;
    if (root.scope !== 'iframe') off = root.parent ? this.frameOffset(root.parent) : ORIGIN;
    else {
      const host = root.host!;
      const r = dom.rect(host);
      const parent = this.frameOffset(root.parent!);
      off = { x: parent.x + r.left + host.clientLeft, y: parent.y + r.top + host.clientTop };
    }
    this.frameOffsets.set(root, off);
    return off;
  }

  /** A point inside a frame is only hittable if, in every ancestor document, the frame is on top there. */
  private frameChainHits(root: RootState, x: number, y: number): boolean {
    let r: RootState | undefined = root;
    while (r && r.scope !== 'iframe') r = r.parent;
    if (!r || !r.parent || !r.host) return true;
    const host = r.host;
    const rect = dom.rect(host);
    const px = x + rect.left + host.clientLeft;
    const py = y + rect.top + host.clientTop;
    const parentView = this.view(r.parent.doc);
    if (px < 0 || py < 0 || px >= parentView.vw || py >= parentView.vh) return true;
    return hitsItself(host, r.parent.key, px, py) && this.frameChainHits(r.parent, px, py);
  }

  /** The visibility of the frame an element is in (`visible` for the top document). */
  private frameVisibilityOf(root: RootState): Visibility {
    let r: RootState | undefined = root;
    while (r && r.scope !== 'iframe') r = r.parent;
    if (!r || !r.parent || !r.host) return 'visible';
    let v = this.frameVisibility.get(r);
    if (!v) {
      const parentView = this.view(r.parent.doc);
      const g = readGeometry(r.host, parentView, true, true);
      v = classifyVisibility({ hidden: g.hidden || r.hostHidden, box: g, page: { w: parentView.pageW, h: parentView.pageH } });
      if (v === 'visible') v = this.frameVisibilityOf(r.parent);
      this.frameVisibility.set(r, v);
    }
    return v;
  }
}

/** What was on top at a covered entry's centre when it was last tested (see mayHaveUncovered). */
const coverTops = new WeakMap<Entry, Element>();

const sameCover = (a: CoveredBy, b: CoveredBy) => a.role === b.role && a.name === b.name && a.ref === b.ref;

function inViewport(g: Geometry, view: DocView): boolean {
  if (g.hidden) return false;
  const left = g.x - view.scrollX;
  const top = g.y - view.scrollY;
  return left < view.vw && left + g.w > 0 && top < view.vh && top + g.h > 0;
}
