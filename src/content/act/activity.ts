/**
 * When the page last changed its DOM, from its own mutations: one MutationObserver over the whole
 * document that only counts deliveries and notes the time (no record is read), started on the
 * first question so a frame nobody asks about pays nothing. Settling (settle.ts) reads it instead
 * of re-observing the page on a timer: an observation of a page that has been quiet for a while
 * need not wait at all. Mutations inside shadow roots and same-origin frames are not seen (as for
 * the act's own settle): those widgets are covered by the requests and animations they run, and
 * by the cap.
 */
export class PageActivity {
  private observer: MutationObserver | undefined;
  private last = -Infinity;
  private count = 0;
  /** Differs for every content-script instance: a key from another document never matches. */
  private readonly instance = Math.random().toString(36).slice(2, 10);

  constructor(
    private readonly doc: Document,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Starts watching (once). Nothing is known of what happened before: that counts as a change just now. */
  private start(): void {
    if (this.observer) return;
    this.last = this.clock();
    this.observer = new MutationObserver(() => this.changed());
    this.observer.observe(this.doc, { subtree: true, childList: true, attributes: true, characterData: true });
  }

  private changed(): void {
    this.count++;
    this.last = this.clock();
  }

  /** When the DOM last changed (mutations not yet delivered included). */
  lastMutation(): number {
    this.start();
    if (this.observer!.takeRecords().length > 0) this.changed();
    return this.last;
  }

  /**
   * What the page looks like as far as its DOM and viewport go: equal keys mean nothing in the
   * document changed and nothing scrolled or resized in between (the screenshot of the one holds
   * for the other).
   */
  key(view: Pick<Window, 'scrollX' | 'scrollY' | 'innerWidth' | 'innerHeight'>): string {
    this.lastMutation();
    return `${this.instance}:${this.count}:${Math.round(view.scrollX)},${Math.round(view.scrollY)}:${view.innerWidth}x${view.innerHeight}`;
  }
}
