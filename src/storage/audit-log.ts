import { AUDIT_CHAIN_BROKEN, AUDIT_GENESIS_HASH, AuditEntry, type UnsealedAuditEntry } from '../protocol/audit.ts';
import { canonicalJson } from '../base/canonical-json.ts';
import { iso, systemClock, type Clock } from '../base/clock.ts';
import { sealAuditEntry, verifyChain, verifyJsonl, type ChainBreak, type ChainVerification } from './audit-chain.ts';
import { SEAL_HEAD, SignedHead, headSignedBy, signHead, type AuditHead } from './audit-seal.ts';
import type { StewardDb } from './db.ts';

export type { AuditHead } from './audit-seal.ts';

/** What a caller supplies; the log assigns id, seq, time and the chain fields. */
export type AuditInput = Omit<UnsealedAuditEntry, 'audit_id' | 'seq' | 'at' | 'prev_hash'>;

/** Who writes the entry that records a broken chain: Steward itself, not an agent. */
const STEWARD_AGENT = 'agent:steward';

/**
 * A copy of the signed head outside IndexedDB (chrome.storage.local, trusted contexts only), so
 * rolling the log and its signed head back together to an older state is still caught.
 */
export interface AuditAnchor {
  load(): Promise<unknown>;
  save(head: SignedHead): Promise<void>;
}

/**
 * Append-only, hash-chained audit log in IndexedDB. Appends are serialised through one promise
 * chain so concurrent callers can never fork it, and each is an `add` under its seq, so even a
 * second writer on the same database fails instead of overwriting (then re-reads the head and
 * retries). There is no update or delete API.
 *
 * Each append also stores the signed head (audit-seal.ts) in the same transaction. Before the
 * first append after a start the stored entries are checked against it: removed newest entries,
 * a rewritten chain or a head not signed with Steward's key are written into the log as a
 * `recovery` entry (so "Verify chain" reports them for good) before anything else is appended.
 */
export class AuditLog {
  private head: AuditHead | undefined;
  private checked = false;
  private key: Promise<CryptoKey> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private anchorWrites: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: StewardDb,
    private readonly clock: Clock = systemClock,
    private readonly anchor?: AuditAnchor,
    /** Told after each entry is stored (the audit export copies it to its outbox). */
    private readonly onAppended?: (entry: AuditEntry) => void,
  ) {}

  /** Rejects (and nothing is stored) when the entry cannot be written and signed. */
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

  private auditKey(): Promise<CryptoKey> {
    this.key ??= loadAuditKey(this.db).catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  /** The newest stored entry and the signed head, read in one transaction so they are from the same moment. */
  private async readHeads(): Promise<{ found: AuditHead | undefined; signed: unknown }> {
    const tx = this.db.transaction(['audit', 'audit_seal']);
    const [cursor, signed] = await Promise.all([tx.objectStore('audit').openCursor(null, 'prev'), tx.objectStore('audit_seal').get(SEAL_HEAD)]);
    return { found: cursor ? { seq: cursor.value.seq, hash: cursor.value.hash } : undefined, signed };
  }

  /** How the stored entries' head `found` stands against the signed head `raw` (and its copy); undefined when they agree. */
  private async headBreak({ found, signed: raw }: { found: AuditHead | undefined; signed: unknown }): Promise<ChainBreak | undefined> {
    const key = await this.auditKey();
    const parsed = SignedHead.safeParse(raw);
    const next = found ? found.seq + 1 : 0;
    if (raw !== undefined && !parsed.success) return { seq: 0, problem: 'unsigned', message: 'the signed head is malformed' };
    const signed = parsed.success ? parsed.data : undefined;
    if (signed && !(await headSignedBy(key, signed))) {
      return { seq: Math.min(signed.seq, next), problem: 'unsigned', message: `the head (entry ${signed.seq}) is not signed with Steward's key: the log or its head was rewritten` };
    }
    const copy = SignedHead.safeParse(await this.anchor?.load().catch(() => undefined));
    if (!signed) {
      if (found) return { seq: 0, problem: 'unsigned', message: `the log holds ${next} entries but no signed head` };
      // Empty and unsigned is a first start, unless the copy remembers entries: the database was
      // removed, key and all (so the copy cannot be authenticated; only Steward's own contexts can write it).
      return copy.success ? { seq: 0, problem: 'truncated', message: `the log is empty but Steward had written entries up to ${copy.data.seq}: its database was removed` } : undefined;
    }
    if (copy.success && copy.data.seq > signed.seq && (await headSignedBy(key, copy.data))) {
      return { seq: signed.seq + 1, problem: 'truncated', message: `the log and its signed head were rolled back from entry ${copy.data.seq} to entry ${signed.seq}` };
    }
    if (!found || found.seq < signed.seq) {
      return {
        seq: next,
        problem: 'truncated',
        message: `${found ? `the log ends at entry ${found.seq}` : 'the log is empty'} but Steward last wrote entry ${signed.seq}: the newest entries were removed`,
      };
    }
    if (found.seq > signed.seq) return { seq: signed.seq + 1, problem: 'inserted', message: `entries after ${signed.seq}, the last one Steward signed, were added without its key` };
    if (found.hash !== signed.hash) return { seq: found.seq, problem: 'rewritten', message: `entry ${found.seq} is not the entry Steward signed: the log was rewritten` };
    return undefined;
  }

  private async appendNow(input: AuditInput, attempt = 0): Promise<AuditEntry> {
    if (!this.checked || attempt > 0) await this.checkHead();
    try {
      return await this.write(input);
    } catch (error) {
      // Another writer took this seq: re-read the head and chain after it.
      if ((error as { name?: string }).name === 'ConstraintError' && attempt < 50) return this.appendNow(input, attempt + 1);
      throw error;
    }
  }

  /** Re-reads the head and, when it disagrees with the signed head, records the break first. */
  private async checkHead(): Promise<void> {
    const heads = await this.readHeads();
    this.head = heads.found;
    const broken = await this.headBreak(heads);
    if (broken) {
      console.error('audit chain broken', broken);
      await this.write({ kind: 'recovery', agent_id: STEWARD_AGENT, outcome: AUDIT_CHAIN_BROKEN, details: { ...broken, found_head: this.head ?? null } });
    }
    this.checked = true;
  }

  /** Seals the entry after the current head and stores it with its signed head in one transaction. */
  private async write(input: AuditInput): Promise<AuditEntry> {
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
    const signed = await signHead(await this.auditKey(), { seq, hash: entry.hash });
    const tx = this.db.transaction(['audit', 'audit_seal'], 'readwrite');
    await Promise.all([tx.objectStore('audit').add(entry), tx.objectStore('audit_seal').put(signed, SEAL_HEAD), tx.done]);
    this.head = { seq, hash: entry.hash };
    this.onAppended?.(entry);
    if (this.anchor) {
      const anchor = this.anchor;
      this.anchorWrites = this.anchorWrites.then(() => anchor.save(signed)).catch((e) => console.error('audit anchor not saved', e));
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
   * Detects any edit, deletion, insertion or reordering, and says at which seq; against the signed
   * head, also removed newest entries and a chain rewritten without Steward's key, including a
   * break found (and recorded) when the worker started.
   */
  async verify(): Promise<ChainVerification> {
    await this.flush();
    await this.anchorWrites;
    const heads = await this.readHeads();
    const broken = await this.headBreak(heads);
    if (broken) return { ok: false, ...broken };
    const signed = SignedHead.safeParse(heads.signed);
    return verifyChain(await this.records(), signed.success ? signed.data : undefined);
  }

  /** JSON Lines, one canonical entry per line, in seq order, then the signed head (`{"signed_head":…}`). */
  async exportJsonl(): Promise<string> {
    await this.flush();
    const tx = this.db.transaction(['audit', 'audit_seal']);
    const [entries, head] = await Promise.all([tx.objectStore('audit').getAll(), tx.objectStore('audit_seal').get(SEAL_HEAD)]);
    const signed = SignedHead.safeParse(head);
    const lines = entries.map((e) => canonicalJson(e));
    if (signed.success) lines.push(canonicalJson({ signed_head: signed.data }));
    return lines.map((l) => `${l}\n`).join('');
  }

  /** Verifies an export, including that its head was signed with this Steward's key. */
  async verifyExport(jsonl: string): Promise<ChainVerification> {
    const key = await this.auditKey();
    return verifyJsonl(jsonl, (head) => headSignedBy(key, head));
  }
}

/** IndexedDB keeps `undefined` members; dropping them keeps stored and hashed forms identical. */
function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Key of the audit key in the `audit_seal` store. */
const SEAL_KEY = 'key';

/** Steward's audit key: created once, never extractable, kept in IndexedDB (which no page or content script can open). */
async function loadAuditKey(db: StewardDb): Promise<CryptoKey> {
  const stored = await db.get('audit_seal', SEAL_KEY);
  if (stored instanceof CryptoKey) return stored;
  const fresh = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256', length: 256 }, false, ['sign', 'verify']);
  // Two starts racing: the first key written wins, and both use it.
  const tx = db.transaction('audit_seal', 'readwrite');
  const raced = await tx.store.get(SEAL_KEY);
  if (raced instanceof CryptoKey) {
    await tx.done;
    return raced;
  }
  await tx.store.put(fresh, SEAL_KEY);
  await tx.done;
  return fresh;
}
