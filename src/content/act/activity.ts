import { LISTENER_MARK_ATTRIBUTE } from '../../protocol/listener-marks.ts';
import { ownMutation } from '../presence/own-elements.ts';

/**
 * A change the page made, not Steward's own listener mark (written when an observation asks the
 * main world for its marks) nor its indicator (src/content/presence/): reading a page, or showing
 * that an agent acts on it, must not make it look busy, nor new.
 */
function pageChange(records: readonly MutationRecord[]): boolean {
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if ((r.type !== 'attributes' || r.attributeName !== LISTENER_MARK_ATTRIBUTE) && !ownMutation(r)) return true;
  }
  return false;
}

/**
 * When the page last changed its DOM, from its own mutations: one MutationObserver over the whole
 * document that counts deliveries and notes the time (a record is read only to leave out
 * Steward's own listener marks: usually the first one decides), started on the
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
    this.observer = new MutationObserver((records) => {
      if (pageChange(records)) this.changed();
    });
    this.observer.observe(this.doc, { subtree: true, childList: true, attributes: true, characterData: true });
  }

  private changed(): void {
    this.count++;
    this.last = this.clock();
  }

  /** When the DOM last changed (mutations not yet delivered included). */
  lastMutation(): number {
    this.start();
    if (pageChange(this.observer!.takeRecords())) this.changed();
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
