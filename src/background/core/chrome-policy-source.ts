import { browser } from './browser.ts';
import { LAST_POLICY_READING_KEY as LAST_READING_KEY } from '../../protocol/managed-policy.ts';
import type { PolicySource } from './managed-policy.ts';

/** The organisation's policy as Chrome gives it: chrome.storage.managed, re-read on storage.onChanged (area `managed`). */
export function chromePolicySource(): PolicySource {
  return {
    read: () => browser.storage.managed.get(),
    onChanged: (listener) =>
      browser.storage.onChanged.addListener((_changes, area) => {
        if (area === 'managed') listener();
      }),
    lastReading: {
      get: async () => (await browser.storage.local.get(LAST_READING_KEY))[LAST_READING_KEY],
      set: (raw) => browser.storage.local.set({ [LAST_READING_KEY]: raw }),
    },
  };
}
