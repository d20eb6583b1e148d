import { signal } from '@preact/signals';
import { browser } from './browser.ts';

/**
 * The tab the panel is about. Normally the active tab of the panel's window; a `?tabId=` in the
 * panel's URL pins it to one tab (used when the panel is opened as a page of its own).
 */
export const currentTabId = signal<number | undefined>(undefined);
export const currentTabTitle = signal<string>('');

export function trackCurrentTab(): void {
  const pinned = Number(new URLSearchParams(location.search).get('tabId'));
  if (Number.isInteger(pinned) && pinned > 0) {
    currentTabId.value = pinned;
    void browser.tabs.get(pinned).then(
      (t) => (currentTabTitle.value = t.title ?? ''),
      () => undefined,
    );
    return;
  }
  const refresh = async () => {
    const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
    currentTabId.value = tab?.id;
    currentTabTitle.value = tab?.title ?? '';
  };
  void refresh();
  browser.tabs.onActivated.addListener(() => void refresh());
  browser.tabs.onUpdated.addListener((tabId, change) => {
    if (tabId === currentTabId.value && change.title !== undefined) currentTabTitle.value = change.title;
  });
}
