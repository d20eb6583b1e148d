import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../../../../src/background/core/browser.ts';
import { chromeScreenshots } from '../../../../src/background/ports/screenshot.ts';

const URL_A = 'http://localhost:4100/orders/ORD-1024';
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

/** The captured image as the worker's OffscreenCanvas would read it: 640×400, every pixel white. */
function stubImageDecoding(): void {
  vi.stubGlobal('createImageBitmap', async () => ({ width: 640, height: 400, close: () => undefined }));
  vi.stubGlobal(
    'OffscreenCanvas',
    class {
      constructor(
        readonly width: number,
        readonly height: number,
      ) {}
      getContext() {
        return { drawImage: () => undefined, getImageData: (_x: number, _y: number, w: number, h: number) => ({ data: new Uint8ClampedArray(w * h * 4).fill(255) }) };
      }
    },
  );
}

/** tabs.captureVisibleTab is not faked by fake-browser (spied through `browser`, which is the fake, for its promise type). */
const capture = () => vi.spyOn(browser.tabs, 'captureVisibleTab').mockResolvedValue(PNG);

beforeEach(stubImageDecoding);
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('screenshot evidence of a tab', () => {
  it('summarises the visible tab of its window, at the captured size', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: URL_A, active: true });
    const shot = capture();
    expect(await chromeScreenshots()(id!)).toEqual({ width: 640, height: 400, blank: true });
    expect(shot).toHaveBeenCalledWith(0, { format: 'png' });
  });

  it('takes no picture of a background tab: the capture would show another page', async () => {
    await fakeBrowser.tabs.create({ url: 'http://localhost:4100/', active: true });
    const { id } = await fakeBrowser.tabs.create({ url: URL_A, active: false });
    const shot = capture();
    expect(await chromeScreenshots()(id!)).toBeUndefined();
    expect(shot).not.toHaveBeenCalled();
  });

  it('takes no picture of a tab in a minimised window', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: URL_A, active: true });
    vi.spyOn(browser.windows, 'get').mockResolvedValue({ id: 0, state: 'minimized', focused: false, alwaysOnTop: false, incognito: false });
    const shot = capture();
    expect(await chromeScreenshots()(id!)).toBeUndefined();
    expect(shot).not.toHaveBeenCalled();
  });

  it('drops a picture taken while the tab moved to another page', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: URL_A, active: true });
    vi.spyOn(browser.tabs, 'captureVisibleTab').mockImplementation(async () => {
      await fakeBrowser.tabs.update(id!, { url: 'http://localhost:4100/account' });
      return PNG;
    });
    expect(await chromeScreenshots()(id!)).toBeUndefined();
  });

  it('takes the same page state once: the same key on the same tab and URL reuses the summary, another key captures', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: URL_A, active: true });
    const shot = capture();
    let t = 0;
    const screenshots = chromeScreenshots(() => t);
    expect(await screenshots(id!, 'k1')).toMatchObject({ blank: true });
    t = 300;
    expect(await screenshots(id!, 'k1')).toMatchObject({ blank: true });
    expect(shot).toHaveBeenCalledTimes(1);
    // No key (the page could not say it was quiet): a capture.
    t = 1_200;
    expect(await screenshots(id!)).toMatchObject({ blank: true });
    t = 1_300;
    expect(await screenshots(id!, 'k2')).toMatchObject({ blank: true });
    expect(shot).toHaveBeenCalledTimes(3);
  });

  it('reuses nothing for a tab that is no longer showing', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: URL_A, active: true });
    const shot = capture();
    const screenshots = chromeScreenshots(() => 0);
    expect(await screenshots(id!, 'k1')).toBeDefined();
    await fakeBrowser.tabs.create({ url: 'http://localhost:4100/', active: true });
    await fakeBrowser.tabs.update(id!, { active: false });
    expect(await screenshots(id!, 'k1')).toBeUndefined();
    expect(shot).toHaveBeenCalledTimes(1);
  });

  it('never waits for the quota: past two captures in a second there is no screenshot, until the quota has room', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: URL_A, active: true });
    const shot = capture();
    let t = 0;
    const screenshots = chromeScreenshots(() => t);
    expect(await screenshots(id!, 'k1')).toBeDefined();
    expect(await screenshots(id!, 'k2')).toBeDefined();
    expect(await screenshots(id!, 'k3')).toBeUndefined();
    expect(shot).toHaveBeenCalledTimes(2);
    t = 1_100;
    expect(await screenshots(id!, 'k3')).toBeDefined();
  });

  it('tries once more when the first capture fails, and gives up after that', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: URL_A, active: true });
    const shot = vi.spyOn(browser.tabs, 'captureVisibleTab').mockRejectedValueOnce(new Error('no frame')).mockResolvedValueOnce(PNG);
    expect(await chromeScreenshots()(id!)).toMatchObject({ width: 640, height: 400 });
    expect(shot).toHaveBeenCalledTimes(2);
    shot.mockRejectedValue(new Error('no frame'));
    expect(await chromeScreenshots()(id!)).toBeUndefined();
  });
});
