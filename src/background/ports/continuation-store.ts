import type { ContinuationStore } from '../../webmcp/continuation-record.ts';
import { browser } from '../core/browser.ts';

/**
 * The continuation book's chains (src/webmcp/continuations.ts) in chrome.storage.session: they
 * outlive a stopped service worker, never a browser (memory only, never on disk), and content
 * scripts cannot read them (restrictStorageToExtension). The book validates what it reads back.
 */
const KEY = 'webmcp.continuations';

export function sessionContinuationStore(): ContinuationStore {
  return {
    load: async () => (await browser.storage.session.get(KEY))[KEY],
    save: (chains) => browser.storage.session.set({ [KEY]: chains }),
  };
}
