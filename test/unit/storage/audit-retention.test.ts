import { describe, expect, it } from 'vitest';
import { verifyJsonl } from '../../../src/storage/audit-chain.ts';
import { AuditLog, type AuditInput } from '../../../src/storage/audit-log.ts';
import { AuditOutbox } from '../../../src/storage/audit-outbox.ts';
import { CHAIN_START_KEY, clearThrough, retentionThrough, type ChainStart } from '../../../src/storage/audit-retention.ts';
import type { StewardDb } from '../../../src/storage/db.ts';
import { FakeClock, openDb } from './helpers.ts';

const DAY = 24 * 60 * 60 * 1000;

const step = (i: number): AuditInput => ({ kind: 'token', agent_id: 'agent:copilot', token_id: 'tok_1', outcome: 'minted', details: { i } });

/** `n` entries, one a day (entry i written on day i). */
async function dailyLog(n: number): Promise<{ db: StewardDb; log: AuditLog; clock: FakeClock }> {
  const db = await openDb();
  const clock = new FakeClock();
  const log = new AuditLog(db, clock.now);
  for (let i = 0; i < n; i++) {
    await log.append(step(i));
    clock.advance(DAY);
  }
  return { db, log, clock };
}

/** Removes the entries older than `days`, as the admin does. */
const retain = (log: AuditLog, clock: FakeClock, days: number) =>
  log.removeOldest((entries) => retentionThrough(entries, days, clock.now()), { reason: 'retention', retention_days: days, by: 'retention' });
const clearAll = (log: AuditLog) => log.removeOldest((entries) => clearThrough(entries.at(-1)?.seq), { reason: 'cleared', by: 'user:local' });

describe('choosing what a removal takes', () => {
  const at = (day: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + day * DAY).toISOString();
  const entries = [0, 1, 2, 3, 4].map((seq) => ({ seq, at: at(seq) }));
  const now = Date.parse(at(5));

  it('retention takes the prefix recorded before the cutoff, and nothing the export still needs', () => {
    expect(retentionThrough(entries, 3, now)).toBe(1);
    expect(retentionThrough(entries, 30, now)).toBeUndefined();
    expect(retentionThrough(entries, 3, now, 1)).toBe(0);
    expect(retentionThrough(entries, 3, now, 0)).toBeUndefined();
  });

  it('stops at an entry whose clock stepped back, leaving the rest for a later run', () => {
    const stepped = [entries[0]!, { seq: 1, at: at(4) }, entries[2]!];
    expect(retentionThrough(stepped, 2, now)).toBe(0);
  });

  it('clear takes everything up to the head, except what the export has not copied', () => {
    expect(clearThrough(4)).toBe(4);
    expect(clearThrough(4, 3)).toBe(2);
    expect(clearThrough(4, 0)).toBeUndefined();
    expect(clearThrough(undefined)).toBeUndefined();
  });
});

describe('removing old audit entries keeps the chain verifiable', () => {
  it('retention removes the old entries, records the removal, and what remains verifies from the recorded start', async () => {
    const { log, clock } = await dailyLog(10);
    const before = await log.entries();
    const result = await retain(log, clock, 3);
    // Entries 0..6 were written more than 3 days before day 10.
    expect(result.removed).toBe(7);
    const after = await log.entries();
    expect(after.map((e) => e.seq)).toEqual([7, 8, 9, 10]);
    const record = after.at(-1)!;
    expect(record).toMatchObject({ kind: 'retention', agent_id: 'agent:steward', outcome: 'old_entries_removed' });
    expect(record.details).toMatchObject({ through_seq: 6, through_hash: before[6]!.hash, removed: 7, reason: 'retention', retention_days: 3, by: 'retention' });
    expect(record.prev_hash).toBe(before[9]!.hash);
    expect(await log.verify()).toEqual({ ok: true, count: 4, head_hash: record.hash, removed_through: 6 });
    // Appends and a restart (a new worker on the same database) keep it valid.
    await log.append(step(11));
    expect(await new AuditLog(log['db'] as StewardDb, clock.now).verify()).toMatchObject({ ok: true, count: 5, removed_through: 6 });
  });

  it('a second removal moves the start on; the newest record names it', async () => {
    const { log, clock } = await dailyLog(10);
    await retain(log, clock, 5);
    clock.advance(3 * DAY);
    const second = await retain(log, clock, 5);
    expect(second.removed).toBeGreaterThan(0);
    expect(await log.verify()).toMatchObject({ ok: true, removed_through: second.entry!.details!.through_seq });
  });

  it('nothing old enough: nothing removed, nothing recorded', async () => {
    const { log, clock } = await dailyLog(3);
    expect(await retain(log, clock, 30)).toEqual({ removed: 0 });
    expect((await log.entries()).length).toBe(3);
    expect(await log.verify()).toMatchObject({ ok: true, count: 3 });
  });

  it('clear leaves one entry recording it, chained to the last removed one; the log goes on from there', async () => {
    const { log } = await dailyLog(5);
    const head = (await log.entries()).at(-1)!;
    expect((await clearAll(log)).removed).toBe(5);
    const left = await log.entries();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ seq: 5, kind: 'retention', outcome: 'log_cleared', prev_hash: head.hash, details: { through_seq: 4, through_hash: head.hash, by: 'user:local' } });
    expect(await log.verify()).toMatchObject({ ok: true, count: 1, removed_through: 4 });
    await log.append(step(6));
    expect(await log.verify()).toMatchObject({ ok: true, count: 2, removed_through: 4 });
  });
});

describe('after a removal, tampering with what remains is still caught', () => {
  async function pruned() {
    const { db, log, clock } = await dailyLog(10);
    await retain(log, clock, 3);
    return { db, log, clock };
  }

  it('an edited entry', async () => {
    const { db, log } = await pruned();
    const e = (await db.get('audit', 8))!;
    await db.put('audit', { ...e, outcome: 'revoked' });
    expect(await log.verify()).toMatchObject({ ok: false, seq: 8, problem: 'edited' });
  });

  it('the first kept entry deleted', async () => {
    const { db, log } = await pruned();
    await db.delete('audit', 7);
    expect(await log.verify()).toMatchObject({ ok: false, seq: 7, problem: 'deleted' });
  });

  it('more entries deleted and the start moved to match, without a record of it', async () => {
    const { db, log } = await pruned();
    const e8 = (await db.get('audit', 8))!;
    const start = (await db.get('audit_seal', CHAIN_START_KEY)) as ChainStart;
    await db.delete('audit', 7);
    await db.delete('audit', 8);
    await db.put('audit_seal', { ...start, through_seq: 8, through_hash: e8.hash }, CHAIN_START_KEY);
    expect(await log.verify()).toMatchObject({ ok: false, problem: 'unrecorded_removal' });
  });

  it('the start removed', async () => {
    const { db, log } = await pruned();
    await db.delete('audit_seal', CHAIN_START_KEY);
    expect(await log.verify()).toMatchObject({ ok: false, seq: 0, problem: 'deleted' });
  });

  it("the start's hash changed", async () => {
    const { db, log } = await pruned();
    const start = (await db.get('audit_seal', CHAIN_START_KEY)) as ChainStart;
    await db.put('audit_seal', { ...start, through_hash: 'f'.repeat(64) }, CHAIN_START_KEY);
    expect(await log.verify()).toMatchObject({ ok: false, seq: 7, problem: 'broken_link' });
  });

  it('old entries deleted by hand, with a start forged but no record in the chain', async () => {
    const { db, log } = await dailyLog(6);
    const e2 = (await db.get('audit', 2))!;
    for (const seq of [0, 1, 2]) await db.delete('audit', seq);
    const forged: ChainStart = { through_seq: 2, through_hash: e2.hash, removed: 3, at: new Date().toISOString(), reason: 'cleared' };
    await db.put('audit_seal', forged, CHAIN_START_KEY);
    expect(await log.verify()).toMatchObject({ ok: false, seq: 3, problem: 'unrecorded_removal' });
  });
});

describe('a log that does not verify', () => {
  it('keeps its entries against retention (they are evidence); a clear goes ahead and records where it was broken', async () => {
    const { db, log, clock } = await dailyLog(6);
    const e = (await db.get('audit', 1))!;
    await db.put('audit', { ...e, outcome: 'revoked' });
    await expect(retain(log, clock, 2)).rejects.toThrow(/does not verify/);
    expect((await log.entries()).length).toBe(6);
    const cleared = await clearAll(log);
    expect(cleared.entry!.details).toMatchObject({ broken_before: { seq: 1, problem: 'edited' } });
    expect(await log.verify()).toMatchObject({ ok: true, count: 1 });
  });
});

describe('an export after a removal', () => {
  it('opens with the chain start and verifies, with and without the key', async () => {
    const { log, clock } = await dailyLog(10);
    await retain(log, clock, 3);
    const jsonl = await log.exportJsonl();
    const lines = jsonl.trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ chain_start: { through_seq: 6, removed: 7, reason: 'retention' } });
    expect((JSON.parse(lines[1]!) as { seq: number }).seq).toBe(7);
    expect(await log.verifyExport(jsonl)).toMatchObject({ ok: true, count: 4, removed_through: 6 });
    expect(await verifyJsonl(jsonl)).toMatchObject({ ok: true, count: 4 });
  });

  it('fails when a line is edited, a kept entry dropped, or the start line removed', async () => {
    const { log, clock } = await dailyLog(10);
    await retain(log, clock, 3);
    const lines = (await log.exportJsonl()).trimEnd().split('\n');
    const edited = [...lines];
    edited[2] = edited[2]!.replace('"minted"', '"revoked"');
    expect(await verifyJsonl(edited.join('\n'))).toMatchObject({ ok: false, seq: 8, problem: 'edited' });
    const dropped = lines.filter((_, i) => i !== 1);
    expect(await verifyJsonl(dropped.join('\n'))).toMatchObject({ ok: false, seq: 7 });
    expect(await verifyJsonl(lines.slice(1).join('\n'))).toMatchObject({ ok: false, seq: 0 });
  });
});

describe('the audit export outbox and removals', () => {
  it('entries removed before a target was set are not waited for: the copy resumes after the chain start', async () => {
    const { db, log, clock } = await dailyLog(6);
    await retain(log, clock, 2);
    const outbox = new AuditOutbox(db);
    const counts = await outbox.fill();
    const copied = await outbox.peek(100);
    expect(copied.map((r) => r.seq)).toEqual((await log.entries()).map((e) => e.seq));
    expect(counts).toMatchObject({ pending: copied.length, waiting_in_log: 0 });
  });
});
