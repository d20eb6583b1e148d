import type { ScreenshotSummary } from '../../observation/fusion/index.ts';

/**
 * When screenshot evidence can be had without waiting (pure; the clock is the caller's).
 *
 * Chrome lets an extension call captureVisibleTab twice in a window of a second
 * (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND): `CaptureBudget` counts the calls in a sliding window
 * a little longer than Chrome's, so a call it allows is never refused for the quota.
 *
 * `PixelMemo` keeps the last summary of each tab under the page's key (src/content/act/activity.ts:
 * no DOM change, scroll or resize since): the same tab, on the same URL, with the same key, within
 * REUSE_MS shows what it showed then, so the capture need not be taken again.
 */

const CALLS_PER_WINDOW = 2;
/** Chrome's window is one second; the margin covers the worker's clock and Chrome's not being the same. */
const WINDOW_MS = 1_050;
/** Pixels not caused by the DOM (a video, a font arriving, a hover) change too: a summary is trusted this long. */
const REUSE_MS = 2_000;

export class CaptureBudget {
  private calls: number[] = [];

  /** Takes a call if the quota has one now (no waiting). */
  take(now: number): boolean {
    this.calls = this.calls.filter((t) => now - t < WINDOW_MS);
    if (this.calls.length >= CALLS_PER_WINDOW) return false;
    this.calls.push(now);
    return true;
  }
}

interface Memo {
  url: string;
  key: string;
  at: number;
  summary: ScreenshotSummary;
}

export class PixelMemo {
  private readonly byTab = new Map<number, Memo>();

  get(tabId: number, url: string, key: string, now: number): ScreenshotSummary | undefined {
    const m = this.byTab.get(tabId);
    return m && m.url === url && m.key === key && now - m.at >= 0 && now - m.at <= REUSE_MS ? m.summary : undefined;
  }

  set(tabId: number, url: string, key: string, summary: ScreenshotSummary, now: number): void {
    this.byTab.delete(tabId);
    this.byTab.set(tabId, { url, key, at: now, summary });
    // A handful of tabs is all that is ever observed at once.
    if (this.byTab.size > 16) this.byTab.delete(this.byTab.keys().next().value!);
  }
}
