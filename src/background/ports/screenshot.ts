import { summarizeScreenshot, type ScreenshotSummary } from '../../observation/fusion/index.ts';
import { browser } from '../core/browser.ts';
import { noteCaptureError } from './capture-error.ts';
import { CaptureBudget, PixelMemo } from './capture-budget.ts';
import type { TabImage } from '../../mcp/ports.ts';

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
export function chromeScreenshots(now: () => number = Date.now, budget = new CaptureBudget()): CaptureScreenshot {
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

/** A capture over this many base64 characters is taken again as JPEG (the link to the bridge carries a few MB). */
const PNG_MAX_CHARS = 4 * 1024 * 1024;
const JPEG_QUALITY = 70;
const QUOTA_WAIT_MS = 1_100;

const NOT_ALLOWED =
  "Chrome lets Steward capture a tab only after the person clicks Steward's toolbar button while that tab shows (per-site access is not enough). Ask the person to click Steward's button in the browser's toolbar on this tab, then call again.";

/**
 * The visible part of a tab as an image, for an agent (steward_screenshot): only the tab showing
 * in its window (captureVisibleTab sees nothing else), and only if it still shows the same page
 * once captured. `budget` is shared with the observations' captures, so together they stay within
 * Chrome's quota; a call waits once for the quota rather than failing.
 */
export function chromeTabImage(budget: CaptureBudget, now: () => number = Date.now): (tabId: number) => Promise<TabImage> {
  const refused = (code: string, message: string, retryable = false): TabImage => ({ ok: false, code, message, retryable });
  return async (tabId) => {
    const tab = await browser.tabs.get(tabId).catch(() => undefined);
    if (!tab?.url || tab.windowId === undefined) return refused('TAB_NOT_FOUND', `Tab ${tabId} shows no web page.`);
    const win = await browser.windows.get(tab.windowId).catch(() => undefined);
    if (!tab.active || tab.discarded || !win || win.state === 'minimized') {
      return refused(
        'TAB_NOT_VISIBLE',
        `Tab ${tabId} is not the one showing in its window, and only what a window shows can be captured: bring it to the front (steward_open with its URL), then call again.`,
        true,
      );
    }
    const capture = async (options: { format: 'png' } | { format: 'jpeg'; quality: number }): Promise<string | TabImage> => {
      if (!budget.take(now())) {
        await new Promise((resolve) => setTimeout(resolve, QUOTA_WAIT_MS));
        if (!budget.take(now())) return refused('CAPTURE_BUSY', 'Chrome allows only a few captures a second; call again in a moment.', true);
      }
      try {
        return await browser.tabs.captureVisibleTab(tab.windowId, options);
      } catch (error) {
        noteCaptureError(error);
        const message = String(error);
        if (/activeTab|all_urls|permission/i.test(message)) return refused('CAPTURE_NOT_ALLOWED', NOT_ALLOWED);
        return refused('CAPTURE_FAILED', `Chrome could not capture tab ${tabId}: ${message.slice(0, 300)}`, true);
      }
    };
    let taken = await capture({ format: 'png' });
    let mime: 'image/png' | 'image/jpeg' = 'image/png';
    if (typeof taken === 'string' && taken.length > PNG_MAX_CHARS) {
      taken = await capture({ format: 'jpeg', quality: JPEG_QUALITY });
      mime = 'image/jpeg';
    }
    if (typeof taken !== 'string') return taken;
    // The pixels must be of this tab and this page.
    const after = await browser.tabs.get(tabId).catch(() => undefined);
    if (!after?.active || after.url !== tab.url) return refused('TAB_CHANGED', `Tab ${tabId} changed while it was captured; call again.`, true);
    const data = taken.slice(taken.indexOf(',') + 1);
    return { ok: true, url: tab.url, mime_type: mime, data, ...(tab.width !== undefined && tab.height !== undefined ? { width: tab.width, height: tab.height } : {}) };
  };
}
