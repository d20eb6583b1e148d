import { summarizeScreenshot, type ScreenshotSummary } from '../../observation/fusion/index.ts';

/** Chrome allows two captureVisibleTab calls a second per extension. */
const MIN_GAP_MS = 550;
/** The pixels are only sampled for blankness: a small copy is plenty. */
const SAMPLE_WIDTH = 320;

export type CaptureScreenshot = (tabId: number) => Promise<ScreenshotSummary | undefined>;

let lastError: string | undefined;

/** Why the last capture failed, if one did (a diagnostic for end-to-end tests). */
export const lastCaptureError = (): string | undefined => lastError;

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
 * (OffscreenCanvas) and never stored or sent anywhere. Undefined whenever no honest capture is
 * possible: a background tab, a minimised window, a tab that switched during the capture.
 */
export function chromeScreenshots(): CaptureScreenshot {
  let last = 0;
  return async (tabId) => {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (!tab?.active || tab.discarded || tab.windowId === undefined || !tab.url) return undefined;
    const win = await chrome.windows.get(tab.windowId).catch(() => undefined);
    if (!win || win.state === 'minimized') return undefined;
    const capture = async (): Promise<string | undefined> => {
      const wait = last + MIN_GAP_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      last = Date.now();
      try {
        return await chrome.tabs.captureVisibleTab(tab.windowId, { format: 'png' });
      } catch (error) {
        lastError = String(error);
        return undefined;
      }
    };
    // A capture can fail while the compositor has no frame for a page that just changed: once more.
    const dataUrl = (await capture()) ?? (await capture());
    if (dataUrl === undefined) return undefined;
    // The pixels must be of this tab and this page.
    const after = await chrome.tabs.get(tabId).catch(() => undefined);
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
      return { ...summary, ...full };
    } catch {
      return undefined;
    }
  };
}
