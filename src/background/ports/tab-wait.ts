/**
 * Waiting for a tab's page to load, from chrome.tabs status events (no "tabs" permission needed:
 * status is not a sensitive field). Every wait is bounded; a tab that closes ends the wait.
 */

import { browser } from '../core/browser.ts';

type UpdatedListener = (tabId: number, info: { status?: string }) => void;
type RemovedListener = (tabId: number) => void;

export interface TabEvents {
  get(tabId: number): Promise<{ status?: string } | undefined>;
  onUpdated: { addListener(l: UpdatedListener): void; removeListener(l: UpdatedListener): void };
  onRemoved: { addListener(l: RemovedListener): void; removeListener(l: RemovedListener): void };
}

export const chromeTabEvents = (): TabEvents => ({
  get: (tabId) => browser.tabs.get(tabId).catch(() => undefined),
  onUpdated: browser.tabs.onUpdated,
  onRemoved: browser.tabs.onRemoved,
});

const LOAD_TIMEOUT_MS = 20_000;

/**
 * Watches one tab from now on. `settled()` resolves once a navigation that started (or starts
 * within `startWithinMs`) has completed; `false` when the tab closed or the time ran out.
 */
export function watchTab(tabs: TabEvents, tabId: number) {
  let loading = false;
  let complete = false;
  let gone = false;
  const wake = new Set<() => void>();
  const notify = () => wake.forEach((w) => w());
  const onUpdated: UpdatedListener = (id, info) => {
    if (id !== tabId || !info.status) return;
    if (info.status === 'loading') {
      loading = true;
      complete = false;
    } else if (info.status === 'complete' && loading) complete = true;
    notify();
  };
  const onRemoved: RemovedListener = (id) => {
    if (id !== tabId) return;
    gone = true;
    notify();
  };
  tabs.onUpdated.addListener(onUpdated);
  tabs.onRemoved.addListener(onRemoved);

  const until = (done: () => boolean, ms: number) =>
    new Promise<void>((resolve) => {
      if (done()) return resolve();
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        wake.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        wake.delete(check);
        resolve();
      }, ms);
      wake.add(check);
    });

  return {
    get navigated(): boolean {
      return loading;
    },
    async settled(startWithinMs: number, timeoutMs = LOAD_TIMEOUT_MS): Promise<boolean> {
      await until(() => loading || gone, startWithinMs);
      if (gone) return false;
      if (!loading) return true;
      await until(() => complete || gone, timeoutMs);
      return complete && !gone;
    },
    dispose(): void {
      tabs.onUpdated.removeListener(onUpdated);
      tabs.onRemoved.removeListener(onRemoved);
      wake.clear();
    },
  };
}

/** Resolves when the tab is not loading (now or after its current load); false if it is gone or still loading at the deadline. */
export async function waitForLoaded(tabs: Pick<TabEvents, 'get'>, tabId: number, timeoutMs = LOAD_TIMEOUT_MS, pollMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const tab = await tabs.get(tabId);
    if (!tab) return false;
    if (tab.status !== 'loading') return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
