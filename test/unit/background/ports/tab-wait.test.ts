import { fakeBrowser } from '@webext-core/fake-browser';
import { describe, expect, it } from 'vitest';
import { chromeTabEvents, waitForLoaded, watchTab } from '../../../../src/background/ports/tab-wait.ts';
import { FakeTabs } from './fake-tabs.ts';

describe('waiting for a tab', () => {
  it('settles at once when no navigation starts within the window', async () => {
    const tabs = new FakeTabs();
    tabs.status.set(1, 'complete');
    const w = watchTab(tabs, 1);
    const t0 = Date.now();
    expect(await w.settled(30)).toBe(true);
    expect(w.navigated).toBe(false);
    expect(Date.now() - t0).toBeLessThan(500);
    w.dispose();
    expect(tabs.listeners).toBe(0);
  });

  it('waits for a navigation that starts to complete', async () => {
    const tabs = new FakeTabs();
    tabs.status.set(1, 'complete');
    const w = watchTab(tabs, 1);
    setTimeout(() => tabs.emit(1, 'loading'), 10);
    let done = false;
    const p = w.settled(200).then((v) => ((done = true), v));
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false);
    tabs.emit(1, 'complete');
    expect(await p).toBe(true);
    expect(w.navigated).toBe(true);
    w.dispose();
  });

  it('ends the wait when the tab closes or the time runs out', async () => {
    const tabs = new FakeTabs();
    tabs.status.set(1, 'complete');
    const w = watchTab(tabs, 1);
    tabs.emit(1, 'loading');
    setTimeout(() => tabs.remove(1), 10);
    expect(await w.settled(100, 5_000)).toBe(false);
    w.dispose();
    const w2 = watchTab(tabs, 2);
    tabs.emit(2, 'loading');
    expect(await w2.settled(100, 30)).toBe(false);
    w2.dispose();
  });

  it('waitForLoaded polls a loading tab until it is not loading, and fails for a closed tab', async () => {
    const tabs = new FakeTabs();
    tabs.status.set(3, 'loading');
    setTimeout(() => tabs.status.set(3, 'complete'), 30);
    expect(await waitForLoaded(tabs, 3, 2_000, 5)).toBe(true);
    expect(await waitForLoaded(tabs, 4, 2_000, 5)).toBe(false);
    tabs.status.set(5, 'loading');
    expect(await waitForLoaded(tabs, 5, 30, 5)).toBe(false);
  });
});

describe('waiting for a tab of the browser (chromeTabEvents)', () => {
  const loadingThenComplete = async (tabId: number) => {
    const tab = (await fakeBrowser.tabs.get(tabId))!;
    await fakeBrowser.tabs.onUpdated.trigger(tabId, { status: 'loading' }, tab);
    await fakeBrowser.tabs.onUpdated.trigger(tabId, { status: 'complete' }, tab);
  };

  it('follows the browser’s status events for that tab only, and lets go of them when disposed', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: 'http://localhost:4100/' });
    const { id: other } = await fakeBrowser.tabs.create({ url: 'http://localhost:4100/other' });
    const w = watchTab(chromeTabEvents(), id!);
    const settled = w.settled(1_000);
    await loadingThenComplete(other!);
    expect(w.navigated).toBe(false);
    await loadingThenComplete(id!);
    expect(await settled).toBe(true);
    expect(w.navigated).toBe(true);
    w.dispose();
    expect(fakeBrowser.tabs.onUpdated.hasListeners()).toBe(false);
    expect(fakeBrowser.tabs.onRemoved.hasListeners()).toBe(false);
  });

  it('a tab the browser closes ends the wait', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: 'http://localhost:4100/' });
    const w = watchTab(chromeTabEvents(), id!);
    await fakeBrowser.tabs.onUpdated.trigger(id!, { status: 'loading' }, (await fakeBrowser.tabs.get(id!))!);
    const settled = w.settled(1_000, 5_000);
    // As Chrome announces it (fake-browser's tabs.remove looks the window up by the tab's id).
    await fakeBrowser.tabs.onRemoved.trigger(id!, { isWindowClosing: false, windowId: 0 });
    expect(await settled).toBe(false);
    w.dispose();
  });

  it('waitForLoaded reads the tab’s status from the browser; a tab that does not exist is not loaded', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: 'http://localhost:4100/' });
    await fakeBrowser.tabs.update(id!, { status: 'loading' } as never);
    setTimeout(() => void fakeBrowser.tabs.update(id!, { status: 'complete' } as never), 20);
    expect(await waitForLoaded(chromeTabEvents(), id!, 2_000, 5)).toBe(true);
    expect(await waitForLoaded(chromeTabEvents(), 999, 2_000, 5)).toBe(false);
  });
});
