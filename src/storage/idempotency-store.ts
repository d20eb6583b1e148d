import type { ActionResult } from '../protocol/results.ts';
import { systemClock, type Clock } from '../base/clock.ts';
import type { StewardDb, StewardSchema } from './db.ts';
import { IdempotencyRecord } from './idempotency-record.ts';
import { readValid } from './read.ts';
import type { IDBPObjectStore } from 'idb';

/** IETF Idempotency-Key / Stripe: a completed key is remembered for at least 24 hours. */
const IDEMPOTENCY_MIN_TTL_MS = 24 * 60 * 60 * 1000;

export type BeginOutcome = { kind: 'started' } | { kind: 'replay'; action_id: string; result: ActionResult } | { kind: 'conflict'; action_id: string } | { kind: 'in_progress'; action_id: string };

export interface BeginRequest {
  agent_id: string;
  key: string;
  request_hash: string;
  action_id: string;
}

/**
 * Idempotency records, keyed per agent: two agents may use the same key without meeting. A key
 * is claimed atomically (one readwrite transaction), so two concurrent submissions with the same
 * key can never both start. Only actions that reached execution are completed and replayed;
 * the pipeline releases a key when it stopped before anything was dispatched (Stripe: "results
 * are only saved if an API endpoint started executing").
 */
export class IdempotencyStore {
  readonly ttlMs: number;

  constructor(
    private readonly db: StewardDb,
    private readonly clock: Clock = systemClock,
    ttlMs = IDEMPOTENCY_MIN_TTL_MS,
  ) {
    this.ttlMs = Math.max(ttlMs, IDEMPOTENCY_MIN_TTL_MS);
  }

  async begin(req: BeginRequest): Promise<BeginOutcome> {
    const tx = this.db.transaction('idempotency', 'readwrite');
    const outcome = await claimKey(tx.store, req, this.clock());
    await tx.done;
    return outcome;
  }

  /** Stores the first result; later submissions with the key get exactly this. */
  async complete(agentId: string, key: string, actionId: string, result: ActionResult): Promise<void> {
    const now = this.clock();
    const tx = this.db.transaction('idempotency', 'readwrite');
    const raw = await tx.store.get([agentId, key]);
    const existing = raw === undefined ? undefined : readValid(IdempotencyRecord, raw, 'idempotency', [agentId, key]);
    if (existing && existing.action_id === actionId && existing.status === 'in_progress') {
      await tx.store.put({ ...existing, status: 'completed', completed_at: now, expires_at: now + this.ttlMs, result });
    }
    await tx.done;
  }

  /** Frees a key whose action ended before dispatch, so the agent can retry it unchanged. */
  async release(agentId: string, key: string, actionId: string): Promise<void> {
    const tx = this.db.transaction('idempotency', 'readwrite');
    const raw = await tx.store.get([agentId, key]);
    if (raw && raw.action_id === actionId && raw.status === 'in_progress') await tx.store.delete([agentId, key]);
    await tx.done;
  }

  /** Keys still claimed by a running action: recovery checks each against the journal. */
  async inProgress(): Promise<IdempotencyRecord[]> {
    const found: IdempotencyRecord[] = [];
    // Completed records are the only ones with `expires_at`; running ones are few, but not indexed.
    for (let cursor = await this.db.transaction('idempotency').store.openCursor(); cursor; cursor = await cursor.continue()) {
      if (cursor.value?.status !== 'in_progress') continue;
      found.push(readValid(IdempotencyRecord, cursor.value, 'idempotency', cursor.key));
    }
    return found;
  }

  async get(agentId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const raw = await this.db.get('idempotency', [agentId, key]);
    return raw === undefined ? undefined : readValid(IdempotencyRecord, raw, 'idempotency', [agentId, key]);
  }

  /** Deletes completed records past their retention. Running ones are resolved by recovery, not by age. */
  async purgeExpired(): Promise<number> {
    const now = this.clock();
    const tx = this.db.transaction('idempotency', 'readwrite');
    let n = 0;
    for (let cursor = await tx.store.index('by_expiry').openCursor(); cursor; cursor = await cursor.continue()) {
      if (cursor.value.expires_at! > now) break;
      await cursor.delete();
      n++;
    }
    await tx.done;
    return n;
  }
}

type IdempotencyObjectStore = IDBPObjectStore<StewardSchema, ArrayLike<'idempotency' | 'journal_actions' | 'journal'>, 'idempotency', 'readwrite'>;

/**
 * The claim itself, inside the caller's readwrite transaction (so the journal can write the new
 * action in the same one): a new or expired key is taken, anything else is answered from the record.
 */
export async function claimKey(store: IdempotencyObjectStore, req: BeginRequest, now: number): Promise<BeginOutcome> {
  const raw = await store.get([req.agent_id, req.key]);
  const existing = raw === undefined ? undefined : readValid(IdempotencyRecord, raw, 'idempotency', [req.agent_id, req.key]);
  const expired = existing?.status === 'completed' && existing.expires_at !== undefined && existing.expires_at <= now;
  if (existing && !expired) {
    if (existing.request_hash !== req.request_hash) return { kind: 'conflict', action_id: existing.action_id };
    if (existing.status === 'in_progress' || !existing.result) return { kind: 'in_progress', action_id: existing.action_id };
    return { kind: 'replay', action_id: existing.action_id, result: existing.result };
  }
  const record: IdempotencyRecord = { ...req, status: 'in_progress', created_at: now };
  await store.put(record);
  return { kind: 'started' };
}
