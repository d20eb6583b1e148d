import { summarizeScreenshot, type ScreenshotSummary } from '../../observation/fusion/index.ts';
import { browser } from '../browser.ts';
import { noteCaptureError } from './capture-error.ts';
import { CaptureBudget, PixelMemo } from './capture-budget.ts';

/** The pixels are only sampled for blankness: a small copy is plenty. */
const SAMPLE_WIDTH = 320;

/** `pageKey`: what the page shows, as its content script keys it (equal keys: nothing changed since). */
export type CaptureScreenshot = (tabId: number, pageKey?: string) => Promise<ScreenshotSummary | undefined>;

function dataUrlBytes(dataUrl: string): Uint8Array<ArrayBuffer> {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Screenshot evidence for a tab's observation: captured only when the tab is the one showing in
 * its window (captureVisibleTab can see nothing else), summarised in the service worker
 * (OffscreenCanvas) and never stored or sent anywhere; only its summary is kept, a moment, for the
 * same page state. Undefined whenever no honest capture is possible: a background tab, a minimised
 * window, a tab that switched during the capture — and when Chrome's quota has no capture left
 * right now: an observation never waits for one (its evidence then says no screenshot was used).
 * The summary of a capture of the same page state (same key, URL and tab, still showing) taken
 * a moment ago is the capture's (capture-budget.ts).
 */
export function chromeScreenshots(now: () => number = Date.now): CaptureScreenshot {
  const budget = new CaptureBudget();
  const memo = new PixelMemo();
  return async (tabId, pageKey) => {
    const tab = await browser.tabs.get(tabId).catch(() => undefined);
    if (!tab?.active || tab.discarded || tab.windowId === undefined || !tab.url) return undefined;
    const win = await browser.windows.get(tab.windowId).catch(() => undefined);
    if (!win || win.state === 'minimized') return undefined;
    const url = tab.url;
    const remembered = pageKey !== undefined ? memo.get(tabId, url, pageKey, now()) : undefined;
    if (remembered) return remembered;
    const capture = async (): Promise<string | undefined> => {
      if (!budget.take(now())) return undefined;
      try {
        return await browser.tabs.captureVisibleTab(tab.windowId, { format: 'png' });
      } catch (error) {
        noteCaptureError(error);
        return undefined;
      }
    };
    // A capture can fail while the compositor has no frame for a page that just changed: once more.
    const dataUrl = (await capture()) ?? (await capture());
    if (dataUrl === undefined) return undefined;
    // The pixels must be of this tab and this page.
    const after = await browser.tabs.get(tabId).catch(() => undefined);
    if (!after?.active || after.url !== tab.url) return undefined;
    try {
      const bitmap = await createImageBitmap(new Blob([dataUrlBytes(dataUrl)], { type: 'image/png' }));
      const width = Math.min(SAMPLE_WIDTH, bitmap.width);
      const height = Math.max(1, Math.round((bitmap.height * width) / Math.max(1, bitmap.width)));
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d');
      if (!context) return undefined;
      context.drawImage(bitmap, 0, 0, width, height);
      const summary = summarizeScreenshot(context.getImageData(0, 0, width, height).data, width, height);
      const full = { width: bitmap.width, height: bitmap.height };
      bitmap.close();
      const taken = { ...summary, ...full };
      if (pageKey !== undefined) memo.set(tabId, url, pageKey, taken, now());
      return taken;
    } catch {
      return undefined;
    }
  };
}
