/**
 * What fusion needs from a screenshot of the visible tab: whether it is blank. The service
 * worker captures it (chrome.tabs.captureVisibleTab → OffscreenCanvas → getImageData) and hands
 * the pixels to `summarizeScreenshot`; fusion itself never touches images.
 */
export interface ScreenshotSummary {
  width: number;
  height: number;
  /** Nearly every pixel is one colour: nothing was painted (or a blank overlay covers the page). */
  blank: boolean;
}

/**
 * Share of sampled pixels that must be one colour for the screenshot to count as blank. A sparse
 * page (one heading on white) still has a few tenths of a percent of ink, so the bar is high.
 */
const BLANK_SHARE = 0.999;
const SAMPLES = 10_000;

/** RGBA pixels (row-major, 4 bytes each) → summary. Samples a grid, so cost is bounded on any size. */
export function summarizeScreenshot(rgba: ArrayLike<number>, width: number, height: number): ScreenshotSummary {
  const total = width * height;
  if (total <= 0 || rgba.length < total * 4) return { width, height, blank: true };
  const step = Math.max(1, Math.floor(total / SAMPLES));
  const counts = new Map<number, number>();
  let sampled = 0;
  for (let p = 0; p < total; p += step) {
    const i = p * 4;
    // 4 bits per channel: anti-aliasing noise and JPEG-ish dithering fall in the same bucket.
    const key = ((rgba[i]! >> 4) << 8) | ((rgba[i + 1]! >> 4) << 4) | (rgba[i + 2]! >> 4);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    sampled++;
  }
  const dominant = Math.max(...counts.values());
  return { width, height, blank: dominant / sampled >= BLANK_SHARE };
}
