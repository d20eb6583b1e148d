import { z } from 'zod';
import { ModelProvider } from '../../protocol/copilot.ts';
import { browser } from '../core/browser.ts';

/**
 * The co-pilot's API key, in chrome.storage.local under its own key (not in the settings the
 * panel reads and writes). chrome.storage.local is restricted to TRUSTED_CONTEXTS
 * (storage-access.ts), so content scripts cannot read it. The key is write-only for the panel:
 * `copilot/set-key` stores it, `copilot/model-status` says only whether one is there. It is read
 * only to call the model, and never logged, pushed or exported.
 */

const KEY = 'copilot.model-key';
const Stored = z.object({ provider: ModelProvider, key: z.string().min(1).max(500) });

export class ModelKeyStore {
  /** The key for this provider, if one is stored (a key for another provider is not used). */
  async keyFor(provider: ModelProvider): Promise<string | undefined> {
    const items = await browser.storage.local.get(KEY);
    const parsed = Stored.safeParse(items[KEY]);
    return parsed.success && parsed.data.provider === provider ? parsed.data.key : undefined;
  }

  /** Stores the key ('' forgets it); returns whether a key is now stored. */
  async set(provider: ModelProvider, key: string): Promise<boolean> {
    const trimmed = key.trim();
    if (!trimmed) {
      await browser.storage.local.remove(KEY);
      return false;
    }
    await browser.storage.local.set({ [KEY]: { provider, key: trimmed } });
    return true;
  }
}
