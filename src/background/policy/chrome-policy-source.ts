import { browser } from '../browser.ts';
import type { PolicySource } from './managed-policy.ts';

/** The last reading of the managed policy Chrome gave (its raw contents), for a start at which Chrome is slow to answer. */
const LAST_READING_KEY = 'steward.managed_policy_last_reading';

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
