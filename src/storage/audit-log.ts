import { AUDIT_GENESIS_HASH, AuditEntry, type UnsealedAuditEntry } from '../protocol/audit.ts';
import { canonicalJson } from '../pipeline/canonical-json.ts';
import { iso, systemClock, type Clock } from '../pipeline/clock.ts';
import { sealAuditEntry, verifyChain, type ChainVerification } from './audit-chain.ts';
import type { StewardDb } from './db.ts';

/** What a caller supplies; the log assigns id, seq, time and the chain fields. */
export type AuditInput = Omit<UnsealedAuditEntry, 'audit_id' | 'seq' | 'at' | 'prev_hash'>;

/** The newest entry the log wrote. */
export interface AuditHead {
  seq: number;
  hash: string;
}

/**
 * Where the head is kept outside the log's own store, so removing the newest entries is still
 * caught after the service worker restarts (chrome.storage.local in the extension).
 */
export interface AuditAnchor {
  load(): Promise<AuditHead | undefined>;
  save(head: AuditHead): Promise<void>;
}

/**
 * Append-only, hash-chained audit log in IndexedDB. Appends are serialised through one promise
 * chain so concurrent callers can never fork it, and each is an `add` under its seq, so even a
 * second writer on the same database fails instead of overwriting (then re-reads the head and
 * retries). There is no update or delete API.
 */
export class AuditLog {
  private head: AuditHead | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private anchorWrites: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: StewardDb,
    private readonly clock: Clock = systemClock,
    private readonly anchor?: AuditAnchor,
  ) {}

  append(input: AuditInput): Promise<AuditEntry> {
    const next = this.queue.then(() => this.appendNow(input));
    // Keep the chain going after a failure; the caller still sees its own rejection.
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Resolves once every append issued so far has been written (or failed). */
  async flush(): Promise<void> {
    await this.queue;
  }

  private async loadHead(): Promise<{ seq: number; hash: string } | undefined> {
    const cursor = await this.db.transaction('audit').store.openCursor(null, 'prev');
    return cursor ? { seq: cursor.value.seq, hash: cursor.value.hash } : undefined;
  }

  private async appendNow(input: AuditInput, attempt = 0): Promise<AuditEntry> {
    if (this.head === undefined || attempt > 0) this.head = await this.loadHead();
    const seq = this.head ? this.head.seq + 1 : 0;
    const sealed = await sealAuditEntry({
      ...stripUndefined(input),
      audit_id: `audit_${seq}`,
      seq,
      at: iso(this.clock()),
      prev_hash: this.head?.hash ?? AUDIT_GENESIS_HASH,
    } as UnsealedAuditEntry);
    // Refuse a malformed entry here: once stored it would make verify() fail for good.
    const entry = AuditEntry.parse(sealed);
    try {
      await this.db.add('audit', entry);
    } catch (error) {
      // Another writer took this seq: re-read the head and chain after it.
      if ((error as { name?: string }).name === 'ConstraintError' && attempt < 50) return this.appendNow(input, attempt + 1);
      throw error;
    }
    const head = { seq, hash: entry.hash };
    this.head = head;
    if (this.anchor) {
      const anchor = this.anchor;
      this.anchorWrites = this.anchorWrites.then(() => anchor.save(head)).catch((e) => console.error('audit anchor not saved', e));
    }
    return entry;
  }

  /** Every stored record in seq order, unvalidated (verify() judges them). */
  private async records(): Promise<{ key: unknown; value: unknown }[]> {
    const tx = this.db.transaction('audit');
    const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()]);
    return keys.map((key, i) => ({ key, value: values[i] }));
  }

  async entries(): Promise<AuditEntry[]> {
    await this.flush();
    return (await this.db.getAll('audit')) as AuditEntry[];
  }

  /**
   * Detects any edit, deletion, insertion or reordering, and says at which seq; with an anchor,
   * also the removal of the newest entries written by an earlier service worker.
   */
  async verify(): Promise<ChainVerification> {
    await this.flush();
    await this.anchorWrites;
    const saved = await this.anchor?.load().catch(() => undefined);
    const expected = saved && (!this.head || saved.seq > this.head.seq) ? saved : this.head;
    return verifyChain(await this.records(), expected);
  }

  /** JSON Lines, one canonical entry per line, in seq order. */
  async exportJsonl(): Promise<string> {
    const entries = await this.entries();
    return entries.map((e) => canonicalJson(e)).join('\n') + (entries.length ? '\n' : '');
  }
}

/** IndexedDB keeps `undefined` members; dropping them keeps stored and hashed forms identical. */
function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
