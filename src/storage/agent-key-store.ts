import type { StewardDb } from './db.ts';
import { StoredAgentKey } from './contract-records.ts';
import { CorruptRecordError, readValid } from './read.ts';

/**
 * Steward's agent keys, one per site origin, in IndexedDB, which no page or content script can
 * open; the private half is a non-extractable CryptoKey, so even this store cannot hand it out.
 * A record is stored under its origin and names it: one moved under another site's key is refused.
 */
export class AgentKeyStore {
  constructor(private readonly db: StewardDb) {}

  async read(origin: string): Promise<StoredAgentKey | undefined> {
    const raw = await this.db.get('agent_key', origin);
    return raw === undefined ? undefined : ownRecord(raw, origin);
  }

  /**
   * Keeps `fresh` unless a key is already stored for its origin (two first uses racing, or two
   * workers): the first key written wins and both callers get it, so a site never sees two keys.
   */
  async keepFirst(fresh: StoredAgentKey): Promise<StoredAgentKey> {
    const record = StoredAgentKey.parse(fresh);
    const tx = this.db.transaction('agent_key', 'readwrite');
    const raced = await tx.store.get(record.origin);
    if (raced !== undefined) {
      await tx.done;
      return ownRecord(raced, record.origin);
    }
    await tx.store.put(record, record.origin);
    await tx.done;
    return record;
  }
}

function ownRecord(raw: unknown, origin: string): StoredAgentKey {
  const record = readValid(StoredAgentKey, raw, 'agent_key', origin);
  if (record.origin !== origin) throw new CorruptRecordError('agent_key', origin, `the key is ${record.origin}'s`);
  return record;
}
