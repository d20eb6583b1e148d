import { describe, expect, it } from 'vitest';
import { AuditExporter } from '../../../src/pipeline/audit-export/exporter.ts';
import type { AuditExportBatch, AuditExportResult } from '../../../src/protocol/audit-export.ts';
import { AuditLog } from '../../../src/storage/audit-log.ts';
import { AuditOutbox } from '../../../src/storage/audit-outbox.ts';
import { PipelineAdmin } from '../../../src/pipeline/admin.ts';
import type { StewardDb } from '../../../src/storage/db.ts';
import { openDb } from '../storage/helpers.ts';

/** The documented limit of the module under test, written out so a change to it fails here. */
const FIRST_RETRY_MS = 1_000;

const TARGET = { host: 'logs.example.org', port: 6514, tls: true };
const ANSWER_MS = 99_999;
const flush = () => new Promise((r) => setTimeout(r, 0));

/** The audit log, its outbox and an exporter over them, with a host played by the test and timers it fires. */
async function world(options: { capacity?: number } = {}) {
  const db = await openDb();
  const outbox = new AuditOutbox(db, options.capacity);
  const posted: AuditExportBatch[] = [];
  const timers: Array<{ run: () => void; ms: number }> = [];
  const wakes: Array<number | undefined> = [];
  let connected = true;
  let target: typeof TARGET | null = TARGET;
  const log: AuditLog = new AuditLog(db, Date.now, undefined, () => exporter.kick());
  const exporter: AuditExporter = new AuditExporter({
    outbox,
    target: () => Promise.resolve(target),
    post: (batch) => (connected ? (posted.push(batch), true) : 'steward-bridge is not connected'),
    audit: async (outcome, details) => void (await log.append({ kind: 'export', agent_id: 'agent:steward', outcome, details })),
    onChange: () => undefined,
    scheduleWake: (ms) => wakes.push(ms),
    // Retry timers only: the wait for the host's answer is left to the test (it answers, or not).
    setTimer: (run, ms) => (ms === ANSWER_MS ? 0 : (timers.push({ run, ms }), timers.length)),
    answerTimeoutMs: ANSWER_MS,
    clearTimer: () => undefined,
  });
  const append = (n: number) => Promise.all(Array.from({ length: n }, () => log.append({ kind: 'token', agent_id: 'agent:a', outcome: 'minted' })));
  /** Lets the exporter's promises run until it has posted `n` batches in all (or stalls). */
  const until = async (test: () => boolean) => {
    for (let i = 0; i < 200 && !test(); i++) await flush();
    expect(test()).toBe(true);
  };
  const answer = (batch: AuditExportBatch, ok = true): void =>
    exporter.onResult(
      ok
        ? { kind: 'audit-export-result', batch: batch.batch, ok: true, through_seq: batch.records.at(-1)!.seq, bytes: 1 }
        : ({ kind: 'audit-export-result', batch: batch.batch, ok: false, problem: 'The collector at tls://logs.example.org:6514 refused the connection.' } as AuditExportResult),
    );
  return {
    db: db as StewardDb,
    log,
    outbox,
    exporter,
    posted,
    timers,
    wakes,
    append,
    until,
    answer,
    setConnected: (v: boolean) => (connected = v),
    setTarget: (t: typeof TARGET | null) => (target = t),
  };
}

describe('audit export: outbox and exporter', () => {
  it('sends every entry once, in seq order, and empties the outbox only when the host confirms', async () => {
    const w = await world();
    await w.append(3);
    const seqs: number[] = [];
    // Batches go one at a time: the next only once the host answered the last.
    for (let n = 1; seqs.length < 3; n++) {
      await w.until(() => w.posted.length === n);
      const batch = w.posted[n - 1]!;
      expect(batch.target).toEqual(TARGET);
      expect((await w.outbox.counts()).pending).toBeGreaterThanOrEqual(batch.records.length);
      seqs.push(...batch.records.map((r) => r.seq));
      w.answer(batch);
      for (let i = 0; i < 30; i++) await flush();
    }
    expect(seqs).toEqual([0, 1, 2]);
    const status = await w.exporter.status();
    expect(status).toMatchObject({ pending: 0, sent_through: 2, target: TARGET });
    expect(status.problem).toBeUndefined();
    // What leaves the browser: no details, no tokens or inputs.
    expect(Object.keys(w.posted[0]!.records[0]!).sort()).toEqual(['agent_id', 'at', 'hash', 'kind', 'outcome', 'prev_hash', 'seq']);
  });

  it('keeps entries through a failure, says why, audits the outage once, and resends the same seqs after the backoff', async () => {
    const w = await world();
    w.setConnected(false);
    await w.append(2);
    await w.until(() => w.timers.length === 1);
    expect(w.timers[0]!.ms).toBe(FIRST_RETRY_MS);
    expect(w.wakes.at(-1)).toBe(FIRST_RETRY_MS);
    for (let i = 0; i < 50; i++) await flush();
    const failing = await w.exporter.status();
    expect(failing.problem).toBe('steward-bridge is not connected');
    const entries = await w.log.entries();
    expect(entries.filter((e) => e.kind === 'export').map((e) => e.outcome)).toEqual(['collector_unreachable']);

    // Appends while the retry waits do not bypass the backoff.
    await w.append(1);
    for (let i = 0; i < 20; i++) await flush();
    expect(w.posted).toHaveLength(0);

    w.setConnected(true);
    w.timers[0]!.run();
    await w.until(() => w.posted.length === 1);
    // Entries 0, 1, the outage entry (2) and 3, in order.
    expect(w.posted[0]!.records.map((r) => r.seq)).toEqual([0, 1, 2, 3]);
    w.answer(w.posted[0]!, false);
    await w.until(() => w.timers.length === 2);
    expect(w.timers[1]!.ms).toBe(2 * FIRST_RETRY_MS);
    w.timers[1]!.run();
    await w.until(() => w.posted.length === 2);
    expect(w.posted[1]!.records.map((r) => r.seq)).toEqual([0, 1, 2, 3]);
    w.answer(w.posted[1]!);
    // Back: the recovery is on record (entry 4) and goes out too.
    await w.until(() => w.posted.length === 3);
    expect(w.posted[2]!.records.map((r) => [r.seq, r.kind, r.outcome])).toEqual([[4, 'export', 'collector_back']]);
  });

  it('picks up entries appended while nobody was exporting (a killed worker, no target yet) from the audit log itself', async () => {
    const w = await world();
    w.setTarget(null);
    await w.append(4);
    for (let i = 0; i < 20; i++) await flush();
    expect(w.posted).toHaveLength(0);
    expect(await w.outbox.counts()).toMatchObject({ pending: 0, waiting_in_log: 4 });
    w.setTarget(TARGET);
    await w.exporter.targetChanged({ to: TARGET, from: null, by: 'user:local' });
    await w.until(() => w.posted.length === 1);
    // The change is on record first: entry 4, sent with the rest.
    expect(w.posted[0]!.records.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(w.posted[0]!.records[4]).toMatchObject({ kind: 'export', agent_id: 'agent:steward', outcome: 'target_set' });
  });

  it('is bounded: past its capacity entries wait in the log, the panel and the audit say it is nearly full, nothing is dropped', async () => {
    const w = await world({ capacity: 5 });
    w.setConnected(false);
    await w.append(6);
    await w.until(() => w.timers.length >= 1);
    for (let i = 0; i < 50; i++) await flush();
    const status = await w.exporter.status();
    // Six entries and the outage's own: those the outbox had no room for (or that came after the failed attempt) wait in the log.
    expect(status).toMatchObject({ capacity: 5, nearly_full: true });
    expect(status.pending).toBeLessThanOrEqual(5);
    expect(status.pending + status.waiting_in_log).toBe((await w.log.entries()).length);

    // The collector comes back: everything goes, in order, in batches of what fits.
    w.setConnected(true);
    const seqs: number[] = [];
    for (let round = 0; round < 10; round++) {
      w.exporter.wake();
      await w.until(() => w.posted.length > round);
      const batch = w.posted[round]!;
      // Noted (in the audit, so the collector learns it too) at the first attempt that finds it so.
      if (round === 0) expect((await w.log.entries()).some((e) => e.kind === 'export' && e.outcome === 'outbox_nearly_full')).toBe(true);
      seqs.push(...batch.records.map((r) => r.seq));
      w.answer(batch);
      for (let i = 0; i < 30; i++) await flush();
      if ((await w.outbox.counts()).pending + (await w.outbox.counts()).waiting_in_log === 0) break;
    }
    const last = (await w.log.entries()).at(-1)!.seq;
    expect(seqs).toEqual(Array.from({ length: last + 1 }, (_, i) => i));
    expect((await w.log.entries()).some((e) => e.kind === 'export' && e.outcome === 'outbox_drained')).toBe(true);
  });

  it('clearing the log never takes entries the export has not copied yet; they are sent, then a later clear takes them', async () => {
    const w = await world({ capacity: 5 });
    w.setConnected(false);
    const admin = new PipelineAdmin({ audit: w.log, clock: Date.now } as never, () => w.exporter.keepsFrom());
    await w.append(8);
    await w.outbox.fill();
    const copied = (await w.outbox.state()).copied_through;
    expect(copied).toBe(4);
    const head = (await w.log.entries()).at(-1)!.seq;
    const cleared = await admin.clearAudit();
    expect(cleared).toEqual({ removed: copied + 1, kept_for_export: head - copied });
    expect((await w.log.entries())[0]!.seq).toBe(copied + 1);
    expect(await w.log.verify()).toMatchObject({ ok: true, removed_through: copied });
    // The collector comes back: everything, including what waited in the log, goes out in order.
    w.setConnected(true);
    w.exporter.wake();
    const seqs: number[] = [];
    // Until the log's last entry went out: draining writes its own export entry, which goes out too (later under load).
    const lastSeq = async () => (await w.log.entries()).at(-1)!.seq;
    for (let i = 0; i < 20 && !seqs.includes(await lastSeq()); i++) {
      await w.until(() => w.posted.length > i);
      const batch = w.posted[i]!;
      seqs.push(...batch.records.map((r) => r.seq));
      w.answer(batch);
      await flush();
    }
    const last = await lastSeq();
    expect(seqs).toEqual(Array.from({ length: last + 1 }, (_, i) => i));
    expect((await admin.clearAudit()).kept_for_export).toBe(0);
    expect(await w.log.verify()).toMatchObject({ ok: true, count: 1 });
  });

  it('without a target, the export keeps nothing back', async () => {
    const w = await world();
    w.setTarget(null);
    expect(await w.exporter.keepsFrom()).toBe(Infinity);
  });
});
