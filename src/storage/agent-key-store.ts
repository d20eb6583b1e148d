import type { StewardDb } from './db.ts';
import { StoredAgentKey } from './native-records.ts';
import { readValid } from './read.ts';

/** Key of the one agent key in the `agent_key` store. */
const AGENT_KEY = 'agent';

/**
 * Steward's agent key (one per profile) in IndexedDB, which no page or content script can open;
 * the private half is a non-extractable CryptoKey, so even this store cannot hand it out.
 */
export class AgentKeyStore {
  constructor(private readonly db: StewardDb) {}

  async read(): Promise<StoredAgentKey | undefined> {
    const raw = await this.db.get('agent_key', AGENT_KEY);
    return raw === undefined ? undefined : readValid(StoredAgentKey, raw, 'agent_key', AGENT_KEY);
  }

  /**
   * Keeps `fresh` unless a key is already stored (two first uses racing, or two workers): the
   * first key written wins and both callers get it, so Steward never holds two identities.
   */
  async keepFirst(fresh: StoredAgentKey): Promise<StoredAgentKey> {
    const record = StoredAgentKey.parse(fresh);
    const tx = this.db.transaction('agent_key', 'readwrite');
    const raced = await tx.store.get(AGENT_KEY);
    if (raced !== undefined) {
      await tx.done;
      return readValid(StoredAgentKey, raced, 'agent_key', AGENT_KEY);
    }
    await tx.store.put(record, AGENT_KEY);
    await tx.done;
    return record;
  }
}
