import { AgentKeyStore } from './agent-key-store.ts';
import { openStewardDb, type OpenOptions } from './db.ts';
import type { StoredAgentKey, StoredSiteGrant } from './contract-records.ts';
import { SiteGrantStore } from './site-grant-store.ts';

export type { StoredAgentKey, StoredSiteGrant } from './contract-records.ts';

/**
 * What the service worker's contract module (src/background/contract/) may ask of storage: its agent
 * key and the sites' grants, nothing else of the database. The pipeline's own stores stay behind
 * the pipeline (test/unit/pipeline/store-boundary.test.ts).
 */
export interface ContractVault {
  agentKey: {
    read(origin: string): Promise<StoredAgentKey | undefined>;
    keepFirst(fresh: StoredAgentKey): Promise<StoredAgentKey>;
  };
  grants: {
    get(origin: string): Promise<StoredSiteGrant | undefined>;
    all(): Promise<StoredSiteGrant[]>;
    put(record: StoredSiteGrant): Promise<void>;
    markEnded(origin: string, tokenId: string, ended: NonNullable<StoredSiteGrant['ended']>): Promise<boolean>;
    delete(origin: string): Promise<void>;
  };
}

/** Opens the `steward` database (its own connection) for the contract path's records. */
export async function openContractVault(options: OpenOptions = {}): Promise<ContractVault> {
  const db = await openStewardDb(options);
  return { agentKey: new AgentKeyStore(db), grants: new SiteGrantStore(db) };
}
