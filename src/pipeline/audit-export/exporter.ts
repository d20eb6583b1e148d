import { EXPORT_BATCH_MAX, type AuditExportBatch, type AuditExportResult, type AuditExportStatus, type AuditExportTarget } from '../../protocol/audit-export.ts';
import type { AuditOutbox, OutboxCounts } from '../../storage/audit-outbox.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';

/**
 * Ships the audit log to the organisation's collector through `steward-bridge host`, at least once
 * and in order: fill the outbox from the log, send its oldest batch, and only when the host says
 * the collector took it remove those records; on any failure keep them and try again after a
 * backoff (1 s doubling to 5 min; a chrome.alarms wake-up as well, so a killed worker resumes).
 * A batch resent after a failure carries the same seqs, so the collector (and `audit verify`)
 * can drop the duplicates. One batch at a time: order is kept by construction.
 *
 * The export writes to the audit itself (kind `export`): the collector becoming unreachable and
 * back, and the outbox nearly full and drained. No chrome.* here; wire-export.ts adapts it.
 */

/** What the browser provides: the target, the native link, a wake-up, a change signal (and the outbox's size). */
export type AuditExportPorts = Omit<ExporterDeps, 'outbox' | 'audit'> & { capacity?: number };

export interface ExporterDeps {
  outbox: Pick<AuditOutbox, 'state' | 'fill' | 'peek' | 'sent' | 'counts' | 'setNearlyFullReported' | 'setFailingSince'>;
  /** The target in force (the person's, later the organisation's policy); null: no export. */
  target(): Promise<AuditExportTarget | null>;
  /** Hands a batch to the host: true, or why it could not (the host is not connected), with its phrase for the panel when there is one. */
  post(batch: AuditExportBatch): true | string | { text: string; said: Phrase };
  /** Writes an `export` entry to the audit log. */
  audit(outcome: string, details: Record<string, unknown>): Promise<void>;
  /** The status changed (open panels ask again). */
  onChange(): void;
  /** Asks to be woken (`wake()`) after `ms` even if the worker is stopped meanwhile; undefined cancels. */
  scheduleWake(ms: number | undefined): void;
  clock?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** How long to wait for the host's answer to a batch. */
  answerTimeoutMs?: number;
  log?: (message: string) => void;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 5 * 60_000;
/** Below this share of the capacity a "nearly full" outbox counts as drained again. */
const DRAINED_SHARE = 0.5;

interface Waiting {
  batch: string;
  resolve(result: AuditExportResult): void;
}

export class AuditExporter {
  private busy = false;
  private again = false;
  private retryTimer: unknown;
  private retryMs = FIRST_RETRY_MS;
  private waiting: Waiting | undefined;
  private batches = 0;
  private problem: { text: string; since: string; said?: Phrase } | undefined;
  private nextAttemptAt: string | undefined;
  private readonly clock: () => number;

  constructor(private readonly deps: ExporterDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  /** Something may be waiting (an entry was appended, the host connected): send unless a retry is scheduled. */
  kick(): void {
    if (this.retryTimer !== undefined) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    void this.pump()
      // A record that cannot be read (or a store that will not open) is a failure like any other: said, and retried.
      .catch((error: unknown) => this.failed(`Steward could not prepare the export: ${String(error)}`.slice(0, 1000)))
      .catch((error: unknown) => this.deps.log?.(`audit export: ${String(error)}`))
      .finally(() => {
        this.busy = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Try now, whatever the backoff says (the wake-up alarm, or the host has just connected). */
  wake(): void {
    this.cancelRetry();
    this.kick();
  }

  /**
   * The person (or policy) changed the target: the change goes on record first (so it is the first
   * thing a new collector receives), then sending starts over with a short backoff.
   */
  async targetChanged(change: { to: AuditExportTarget | null; from: AuditExportTarget | null; by: string }): Promise<void> {
    const where = (t: AuditExportTarget) => ({ host: t.host, port: t.port, tls: t.tls });
    await this.deps.audit(change.to ? 'target_set' : 'target_cleared', {
      set_by: change.by,
      ...(change.to ? where(change.to) : {}),
      ...(change.from ? { was: where(change.from) } : {}),
    });
    // A new target's failures are a new outage, reported on their own.
    await this.deps.outbox.setFailingSince(undefined);
    this.retryMs = FIRST_RETRY_MS;
    this.problem = undefined;
    this.nextAttemptAt = undefined;
    this.deps.onChange();
    this.wake();
  }

  /** The host's answer to a batch. */
  onResult(result: AuditExportResult): void {
    if (this.waiting?.batch !== result.batch) return;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting.resolve(result);
  }

  /**
   * The first seq the audit log must keep for the export: while a target is set, entries not yet
   * copied to the outbox (the outbox holds its own copy of the rest); none without a target (what
   * is removed before a target is set is never sent: the export starts from what is left).
   */
  async keepsFrom(): Promise<number> {
    if (!(await this.deps.target())) return Infinity;
    return (await this.deps.outbox.state()).copied_through + 1;
  }

  async status(): Promise<AuditExportStatus> {
    const [target, counts, state] = await Promise.all([this.deps.target(), this.deps.outbox.counts(), this.deps.outbox.state()]);
    return {
      target,
      chain: state.chain,
      ...counts,
      sent_through: state.sent_through,
      ...(state.last_sent_at ? { last_sent_at: state.last_sent_at } : {}),
      ...(this.problem ? { problem: this.problem.text, ...(this.problem.said ? { problem_said: this.problem.said } : {}), problem_since: this.problem.since } : {}),
      ...(this.nextAttemptAt && this.problem ? { next_attempt_at: this.nextAttemptAt } : {}),
    };
  }

  private async pump(): Promise<void> {
    for (;;) {
      const target = await this.deps.target();
      if (!target) return;
      await this.noteFullness(await this.deps.outbox.fill());
      const records = await this.deps.outbox.peek(EXPORT_BATCH_MAX);
      if (records.length === 0) {
        this.deps.scheduleWake(undefined);
        return;
      }
      const { chain } = await this.deps.outbox.state();
      const result = await this.send({ kind: 'audit-export', batch: `x${this.clock().toString(36)}-${++this.batches}`, chain, target, records });
      if (!result.ok) return this.failed(result.problem, result.problem_said);
      await this.deps.outbox.sent(result.through_seq, this.now());
      this.retryMs = FIRST_RETRY_MS;
      this.nextAttemptAt = undefined;
      this.problem = undefined;
      // The outage's end is on record, even when the worker that saw it start was stopped since.
      const { failing_since } = await this.deps.outbox.state();
      if (failing_since) {
        await this.deps.outbox.setFailingSince(undefined);
        await this.deps.audit('collector_back', { failing_since });
      }
      this.deps.onChange();
    }
  }

  private send(batch: AuditExportBatch): Promise<AuditExportResult> {
    const posted = this.deps.post(batch);
    if (posted !== true) {
      const why = typeof posted === 'string' ? { problem: posted } : { problem: posted.text, problem_said: posted.said };
      return Promise.resolve({ kind: 'audit-export-result', batch: batch.batch, ok: false, ...why });
    }
    const timeoutMs = this.deps.answerTimeoutMs ?? 60_000;
    return new Promise<AuditExportResult>((resolve) => {
      const timer = (this.deps.setTimer ?? setTimeout)(() => {
        if (this.waiting?.batch !== batch.batch) return;
        this.waiting = undefined;
        const seconds = Math.round(timeoutMs / 1000);
        resolve({
          kind: 'audit-export-result',
          batch: batch.batch,
          ok: false,
          problem: `steward-bridge did not answer within ${seconds} s.`,
          problem_said: phrase('collector_no_answer', { seconds }),
        });
      }, timeoutMs);
      this.waiting = {
        batch: batch.batch,
        resolve: (result) => {
          (this.deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>)))(timer);
          resolve(result);
        },
      };
    });
  }

  private async failed(problem: string, said?: Phrase): Promise<void> {
    const { failing_since } = await this.deps.outbox.state();
    this.problem ??= { text: problem, since: failing_since ?? this.now() };
    this.problem.text = problem;
    if (said) this.problem.said = said;
    else delete this.problem.said;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.nextAttemptAt = new Date(this.clock() + wait).toISOString();
    this.cancelRetry();
    this.retryTimer = (this.deps.setTimer ?? setTimeout)(() => {
      this.retryTimer = undefined;
      this.kick();
    }, wait);
    this.deps.scheduleWake(wait);
    this.deps.log?.(`audit export: ${problem} (next attempt in ${Math.round(wait / 1000)} s)`);
    // Once per outage (across worker restarts): the entry itself waits in the outbox, so the collector learns of the outage too.
    if (!failing_since) {
      await this.deps.outbox.setFailingSince(this.problem.since);
      await this.deps.audit('collector_unreachable', { problem });
    }
    this.deps.onChange();
  }

  private async noteFullness(counts: OutboxCounts): Promise<void> {
    const { nearly_full_reported } = await this.deps.outbox.state();
    const details = { pending: counts.pending, waiting_in_log: counts.waiting_in_log, capacity: counts.capacity };
    if (counts.nearly_full && !nearly_full_reported) {
      await this.deps.outbox.setNearlyFullReported(true);
      await this.deps.audit('outbox_nearly_full', details);
      this.deps.onChange();
    } else if (nearly_full_reported && counts.pending + counts.waiting_in_log < counts.capacity * DRAINED_SHARE) {
      await this.deps.outbox.setNearlyFullReported(false);
      await this.deps.audit('outbox_drained', details);
      this.deps.onChange();
    }
  }

  private cancelRetry(): void {
    if (this.retryTimer === undefined) return;
    (this.deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>)))(this.retryTimer);
    this.retryTimer = undefined;
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }
}
