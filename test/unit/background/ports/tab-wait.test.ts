import { describe, expect, it } from 'vitest';
import { waitForLoaded, watchTab } from '../../../../src/background/ports/tab-wait.ts';
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
