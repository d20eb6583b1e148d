import { wrap, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { ApprovalReceipt, ApprovalRequest } from '../protocol/approval.ts';
import type { AuditEntry } from '../protocol/audit.ts';
import type { JournalEntry } from '../protocol/journal.ts';
import type { DurableMemoryRecord } from '../protocol/memory.ts';
import type { StoredAction } from './action-record.ts';
import type { StoredApproval, StoredReceipt } from './approval-records.ts';
import type { IdempotencyRecord } from './idempotency-record.ts';
import type { QuotaRecord } from './quota-record.ts';
import type { SignedHead } from './audit-seal.ts';
import type { ChainStart } from './audit-retention.ts';
import type { StoredToken } from './token-record.ts';
import type { StoredAgentKey, StoredSiteGrant } from './contract-records.ts';
import type { ExportRecord } from '../protocol/audit-export.ts';

/**
 * The service worker's one database, `steward`. Everything that must survive a service-worker
 * kill lives here (DESIGN §8); nothing secret goes to chrome.storage.local, and content scripts
 * cannot open an extension origin's IndexedDB. Values are plain JSON; each store re-validates
 * what it reads with the protocol's schemas, so a corrupted or hand-edited record is an error,
 * never a silently trusted value.
 */
const DB_NAME = 'steward';
/** Bump with a new `migrate` step; never edit a released step. */
const DB_VERSION = 5;

export interface StewardSchema extends DBSchema {
  tokens: { key: string; value: StoredToken; indexes: { by_agent: string; by_secret_hash: string } };
  approvals: { key: string; value: StoredApproval & { request: ApprovalRequest }; indexes: { by_status: string; by_action: string } };
  receipts: { key: string; value: StoredReceipt & { receipt: ApprovalReceipt } };
  idempotency: { key: [string, string]; value: IdempotencyRecord; indexes: { by_expiry: number } };
  journal: { key: [string, number]; value: JournalEntry; indexes: { by_action: string } };
  journal_actions: { key: string; value: StoredAction; indexes: { by_open: number } };
  audit: { key: number; value: AuditEntry };
  memory: { key: string; value: DurableMemoryRecord; indexes: { by_resource: [string, string]; by_resource_kind: [string, string, string]; by_kind: string } };
  quota: { key: string; value: QuotaRecord };
  /** The audit key (a non-extractable CryptoKey), the signed head (audit-seal.ts) and the chain's start after removals (audit-retention.ts), out-of-line keys. */
  audit_seal: { key: string; value: CryptoKey | SignedHead | ChainStart };
  /** Steward's agent key for the contract path (a non-extractable Ed25519 CryptoKey and its public JWK), out-of-line key. */
  agent_key: { key: string; value: StoredAgentKey };
  /** The token each site granted Steward (a secret: never leaves the worker), by origin. */
  site_grants: { key: string; value: StoredSiteGrant };
  /** Audit entries waiting for the organisation's collector (audit-outbox.ts), by seq. */
  audit_outbox: { key: number; value: ExportRecord };
  /** The export's own state (audit-outbox.ts), out-of-line key. */
  audit_export: { key: string; value: unknown };
}

export type StewardDb = IDBPDatabase<StewardSchema>;
type StoreName = StoreNames<StewardSchema>;

export interface OpenOptions {
  name?: string;
  /** Defaults to the global `indexedDB`; tests pass a fresh fake-indexeddb factory. */
  factory?: IDBFactory;
}

type UpgradeTx = IDBPTransaction<StewardSchema, StoreName[], 'versionchange'>;

function migrate(db: StewardDb, oldVersion: number, tx: UpgradeTx): void {
  if (oldVersion < 1) {
    db.createObjectStore('tokens', { keyPath: 'token_id' }).createIndex('by_agent', 'agent_id');
    const approvals = db.createObjectStore('approvals', { keyPath: 'request.request_id' });
    approvals.createIndex('by_status', 'status');
    approvals.createIndex('by_action', 'action_id');
    db.createObjectStore('receipts', { keyPath: 'receipt.receipt_id' });
    // Only completed records carry `expires_at`, so the purge index never sees running ones.
    db.createObjectStore('idempotency', { keyPath: ['agent_id', 'key'] }).createIndex('by_expiry', 'expires_at');
    db.createObjectStore('journal', { keyPath: ['action_id', 'seq'] }).createIndex('by_action', 'action_id');
    db.createObjectStore('journal_actions', { keyPath: 'action_id' }).createIndex('by_open', 'open');
    db.createObjectStore('audit', { keyPath: 'seq' });
    const memory = db.createObjectStore('memory', { keyPath: 'id' });
    memory.createIndex('by_resource', ['resource.type', 'resource.id']);
    memory.createIndex('by_resource_kind', ['resource.type', 'resource.id', 'kind']);
    memory.createIndex('by_kind', 'kind');
  }
  if (oldVersion < 2) db.createObjectStore('quota', { keyPath: 'agent_id' });
  if (oldVersion < 3) {
    db.createObjectStore('audit_seal');
    // Agents present a secret, found by its SHA-256; the public id is no longer a credential.
    tx.objectStore('tokens').createIndex('by_secret_hash', 'secret_hash', { unique: true });
    // If this fails, the read check still refuses them (a record without a hash must be revoked).
    if (oldVersion >= 1) revokePlainTokens(tx).catch((error) => console.error('revoking pre-v3 tokens failed', error));
  }
  if (oldVersion < 4) {
    // The contract path (issue 16): Steward's agent key and the grants sites issued for it.
    db.createObjectStore('agent_key');
    db.createObjectStore('site_grants', { keyPath: 'origin' });
  }
  if (oldVersion < 5) {
    // The audit export (issue 32): its outbox and its state.
    db.createObjectStore('audit_outbox', { keyPath: 'seq' });
    db.createObjectStore('audit_export');
  }
}

/**
 * Before v3 the token id was the credential, and it is in every record and export: such tokens
 * are revoked for good (they have no secret to present anyway); the person mints new ones.
 */
async function revokePlainTokens(tx: UpgradeTx): Promise<void> {
  const now = Date.now();
  let cursor = await tx.objectStore('tokens').openCursor();
  while (cursor) {
    const t = cursor.value as Partial<StoredToken>;
    if (t.secret_hash === undefined && t.revoked_at === undefined) {
      const issued = typeof t.issued_at === 'string' ? Date.parse(t.issued_at) : NaN;
      await cursor.update({ ...cursor.value, revoked_at: new Date(Number.isNaN(issued) ? now : Math.max(now, issued)).toISOString() });
    }
    cursor = await cursor.continue();
  }
}

/** Opens (and creates or upgrades) the database. Same as idb's openDB, but with an injectable factory. */
export function openStewardDb(options: OpenOptions = {}): Promise<StewardDb> {
  const factory = options.factory ?? globalThis.indexedDB;
  if (!factory) return Promise.reject(new Error('IndexedDB is not available in this context'));
  const request = factory.open(options.name ?? DB_NAME, DB_VERSION);
  request.addEventListener('upgradeneeded', (event) => {
    const db = wrap(request.result) as unknown as StewardDb;
    migrate(db, event.oldVersion, wrap(request.transaction!) as unknown as UpgradeTx);
  });
  return wrap(request) as unknown as Promise<StewardDb>;
}
