import { z } from 'zod';
import { AuditEntry } from '../protocol/audit.ts';
import { BrowserChainId, ExportRecord, toExportRecord } from '../protocol/audit-export.ts';
import { hexOf } from '../base/hash.ts';
import { IsoDateTime } from '../protocol/primitives.ts';
import type { StewardDb } from './db.ts';
import { readValid } from './read.ts';

/**
 * The audit export's outbox in IndexedDB: a copy of each entry's exported fields (ExportRecord),
 * by seq, kept until the collector has taken it. Filled from the audit log itself, never from
 * memory: `fill()` copies every entry after the last one copied, so an entry appended just before
 * the worker was killed is picked up at the next start, and the outbox can never skip one.
 *
 * Bounded: at `capacity` records `fill()` copies no more, and the rest wait in the audit log
 * (which keeps every entry anyway) until room frees; `waiting_in_log` counts them. Nothing is
 * dropped. Every record read back is validated (a hand-edited record is an error, not a message).
 */

const DEFAULT_OUTBOX_CAPACITY = 50_000;
/** At this share of the capacity the panel and the audit say the outbox is nearly full. */
const NEARLY_FULL_SHARE = 0.8;

const STATE_KEY = 'state';

export const ExportState = z.object({
  chain: BrowserChainId,
  /** The last seq copied into the outbox (-1: none yet). */
  copied_through: z.int().min(-1),
  /** The last seq the collector took (-1: none yet). */
  sent_through: z.int().min(-1),
  last_sent_at: IsoDateTime.optional(),
  /** The outbox said "nearly full" (in the audit) and has not drained since. */
  nearly_full_reported: z.boolean().default(false),
  /** Since when sending fails (the outage is on record): kept across worker restarts, so its end is recorded too. */
  failing_since: IsoDateTime.optional(),
});
export type ExportState = z.infer<typeof ExportState>;

export interface OutboxCounts {
  pending: number;
  waiting_in_log: number;
  capacity: number;
  nearly_full: boolean;
}

function newChainId(): string {
  return `b-${hexOf(crypto.getRandomValues(new Uint8Array(8)))}`;
}

export class AuditOutbox {
  /** Writes of the state are serialised, so a fill and a `sent` never overwrite each other's fields. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: StewardDb,
    readonly capacity = DEFAULT_OUTBOX_CAPACITY,
  ) {}

  /** This profile's state; created (with a fresh chain id) on first use. */
  async state(): Promise<ExportState> {
    const tx = this.db.transaction('audit_export', 'readwrite');
    const raw = await tx.store.get(STATE_KEY);
    if (raw !== undefined) {
      await tx.done;
      return readValid(ExportState, raw, 'audit_export', STATE_KEY);
    }
    const fresh: ExportState = { chain: newChainId(), copied_through: -1, sent_through: -1, nearly_full_reported: false };
    await tx.store.put(fresh, STATE_KEY);
    await tx.done;
    return fresh;
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Copies the entries appended since the last fill, as many as there is room for, in one transaction. */
  fill(): Promise<OutboxCounts> {
    return this.serial(() => this.fillNow());
  }

  private async fillNow(): Promise<OutboxCounts> {
    const state = await this.state();
    const tx = this.db.transaction(['audit', 'audit_outbox', 'audit_export'], 'readwrite');
    const outbox = tx.objectStore('audit_outbox');
    const [count, head] = await Promise.all([outbox.count(), tx.objectStore('audit').openCursor(null, 'prev')]);
    const headSeq = head ? head.value.seq : -1;
    const room = Math.max(0, this.capacity - count);
    let copied = state.copied_through;
    if (room > 0 && headSeq > copied) {
      const entries = await tx.objectStore('audit').getAll(IDBKeyRange.lowerBound(copied, true), room);
      for (const raw of entries) {
        const entry = readValid(AuditEntry, raw, 'audit', raw.seq);
        // In seq order with none skipped: a hole in the log stops the copy there (verify reports it).
        if (entry.seq !== copied + 1) break;
        void outbox.put(ExportRecord.parse(toExportRecord(entry)));
        copied = entry.seq;
      }
      void tx.objectStore('audit_export').put({ ...state, copied_through: copied }, STATE_KEY);
    }
    await tx.done;
    const pending = count + (copied - state.copied_through);
    return this.countsOf(pending, headSeq - copied);
  }

  private countsOf(pending: number, waitingInLog: number): OutboxCounts {
    return { pending, waiting_in_log: waitingInLog, capacity: this.capacity, nearly_full: pending + waitingInLog >= this.capacity * NEARLY_FULL_SHARE };
  }

  async counts(): Promise<OutboxCounts> {
    const state = await this.state();
    const tx = this.db.transaction(['audit', 'audit_outbox']);
    const [pending, head] = await Promise.all([tx.objectStore('audit_outbox').count(), tx.objectStore('audit').openCursor(null, 'prev')]);
    return this.countsOf(pending, Math.max(0, (head ? head.value.seq : -1) - state.copied_through));
  }

  /** The oldest `max` records, in seq order. */
  async peek(max: number): Promise<ExportRecord[]> {
    const tx = this.db.transaction('audit_outbox');
    const [keys, values] = await Promise.all([tx.store.getAllKeys(null, max), tx.store.getAll(null, max)]);
    return values.map((v, i) => readValid(ExportRecord, v, 'audit_outbox', keys[i]));
  }

  /** The collector took everything through `seq`: those records leave the outbox. */
  sent(seq: number, at: string): Promise<void> {
    return this.serial(() => this.sentNow(seq, at));
  }

  private async sentNow(seq: number, at: string): Promise<void> {
    const state = await this.state();
    const tx = this.db.transaction(['audit_outbox', 'audit_export'], 'readwrite');
    void tx.objectStore('audit_outbox').delete(IDBKeyRange.upperBound(seq));
    void tx.objectStore('audit_export').put({ ...state, sent_through: Math.max(state.sent_through, seq), last_sent_at: at }, STATE_KEY);
    await tx.done;
  }

  setNearlyFullReported(value: boolean): Promise<void> {
    return this.serial(async () => {
      const state = await this.state();
      await this.db.put('audit_export', { ...state, nearly_full_reported: value }, STATE_KEY);
    });
  }

  setFailingSince(since: string | undefined): Promise<void> {
    return this.serial(async () => {
      const { failing_since: _was, ...state } = await this.state();
      await this.db.put('audit_export', since ? { ...state, failing_since: since } : state, STATE_KEY);
    });
  }
}
