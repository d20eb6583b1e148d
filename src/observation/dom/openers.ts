/**
 * Which control opened a popup (issue 26): a container — a suggestion list, a menu, a date grid,
 * a dialog — that shows something soon after an act on a control, and showed nothing (was
 * absent, empty or hidden) in the snapshot before, is tied to that control (`openedBy`), and
 * stays tied while it keeps showing. An act ties in the snapshots of the next OPEN_WINDOW_MS
 * only (a suggestion list may wait for a debounce after the keystroke), until its first tie, and
 * at most a few containers: a toast that appears later, or a page that re-renders everything,
 * is not pinned on whatever was pressed last.
 */

/** Containers one act may tie (a date picker's grid, its month list…). */
const MAX_TIES = 4;
/** How long after an act what appears is taken for its doing. */
const OPEN_WINDOW_MS = 3_000;

export class PopupOpeners {
  private acted: { ref: string; at: number } | undefined;
  private shownBefore = new WeakSet<Element>();
  private readonly openerOf = new WeakMap<Element, string>();

  constructor(private readonly now: () => number) {}

  /** A step acted on the control with this ref (src/content/act/run.ts calls it through the observation host). */
  actedOn(ref: string): void {
    this.acted = { ref, at: this.now() };
  }

  /**
   * After a snapshot is assembled: `shown`, its containers that show something; `elementFor`, the
   * live element of a ref; `contains`, whether a node holds another (pure: the DOM is passed in).
   */
  update(shown: ReadonlySet<Element>, elementFor: (ref: string) => Element | undefined, contains: (outer: Element, inner: Element) => boolean): void {
    const acted = this.acted && this.now() - this.acted.at <= OPEN_WINDOW_MS ? this.acted : undefined;
    const control = acted ? elementFor(acted.ref) : undefined;
    let tied = 0;
    for (const container of shown) {
      if (this.shownBefore.has(container)) continue;
      // Newly shown: opened by the control just acted on, unless the control is inside it (a re-rendered list whose option was chosen).
      if (acted && control && tied < MAX_TIES && !contains(container, control)) {
        this.openerOf.set(container, acted.ref);
        tied++;
      } else this.openerOf.delete(container);
    }
    if (tied > 0 || !acted) this.acted = undefined;
    this.shownBefore = new WeakSet(shown);
  }

  /** The ref of the control that opened this container, while it stays shown. */
  openedBy(container: Element): string | undefined {
    return this.shownBefore.has(container) ? this.openerOf.get(container) : undefined;
  }
}
