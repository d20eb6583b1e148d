import { describe, expect, it } from 'vitest';
import { AUDIT_GENESIS_HASH, AuditEntry } from '../../../src/protocol/audit.ts';
import { canonicalJson } from '../../../src/pipeline/canonical-json.ts';
import { sha256Hex } from '../../../src/pipeline/hash.ts';
import { sealAuditEntry, verifyJsonl } from '../../../src/storage/audit-chain.ts';
import { AuditLog, type AuditInput } from '../../../src/storage/audit-log.ts';
import type { StewardDb } from '../../../src/storage/db.ts';
import { FakeClock, openDb } from './helpers.ts';

const step = (i: number): AuditInput => ({
  kind: 'dispatch',
  agent_id: 'agent:copilot',
  token_id: 'tok_1',
  idempotency_key: `k${i}`,
  action: 'orders.cancel',
  resource: { type: 'order', id: 'ORD-1024' },
  input_hash: `sha256:${'a'.repeat(64)}`,
  state_version_before: i,
  outcome: 'dispatched',
});

async function logWith(n: number): Promise<{ db: StewardDb; log: AuditLog }> {
  const db = await openDb();
  const log = new AuditLog(db, new FakeClock().now);
  for (let i = 0; i < n; i++) await log.append(step(i));
  return { db, log };
}

describe('AuditLog', () => {
  it('chains each entry to the previous one, hashing the canonical entry without its hash', async () => {
    const { log } = await logWith(3);
    const entries = await log.entries();
    expect(entries.map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(entries[0]!.prev_hash).toBe(AUDIT_GENESIS_HASH);
    expect(entries[1]!.prev_hash).toBe(entries[0]!.hash);
    expect(entries[2]!.prev_hash).toBe(entries[1]!.hash);
    const { hash, ...body } = entries[1]!;
    expect(hash).toBe(await sha256Hex(canonicalJson(body)));
    expect(entries.every((e) => AuditEntry.safeParse(e).success)).toBe(true);
    expect(entries[2]!.audit_id).toBe('audit_2');
    expect(await log.verify()).toEqual({ ok: true, count: 3, head_hash: entries[2]!.hash });
  });

  it('refuses an entry that breaks the audit schema instead of storing it', async () => {
    const { log } = await logWith(0);
    await expect(log.append({ ...step(0), token_id: undefined })).rejects.toThrow(/token_id/);
    expect(await log.verify()).toMatchObject({ ok: true, count: 0 });
  });

  it('detects an edited entry and says which', async () => {
    const { db, log } = await logWith(5);
    const e = (await db.get('audit', 2))!;
    await db.put('audit', { ...e, outcome: 'confirmed' });
    expect(await log.verify()).toMatchObject({ ok: false, seq: 2, problem: 'edited' });
  });

  it('detects an added field even though the schema would strip it', async () => {
    const { db, log } = await logWith(3);
    const e = (await db.get('audit', 1))!;
    await db.put('audit', { ...e, smuggled: 'x' } as never);
    expect(await log.verify()).toMatchObject({ ok: false, seq: 1, problem: 'edited' });
  });

  it('detects an edit whose hash was recomputed: the next link breaks', async () => {
    const { db, log } = await logWith(5);
    const e = (await db.get('audit', 2))!;
    const { hash: _h, ...body } = e;
    await db.put('audit', await sealAuditEntry({ ...body, outcome: 'confirmed' }));
    expect(await log.verify()).toMatchObject({ ok: false, seq: 3, problem: 'broken_link' });
  });

  it('detects a deleted entry', async () => {
    const { db, log } = await logWith(5);
    await db.delete('audit', 3);
    expect(await log.verify()).toMatchObject({ ok: false, seq: 3, problem: 'deleted' });
  });

  it('detects removal of the newest entries (by this session)', async () => {
    const { db, log } = await logWith(5);
    await db.delete('audit', 4);
    expect(await log.verify()).toMatchObject({ ok: false, seq: 4, problem: 'truncated' });
  });

  it('detects reordering: in the store (entries re-sequenced) and in an exported log (lines moved)', async () => {
    const { db, log } = await logWith(5);
    const a = (await db.get('audit', 1))!;
    const b = (await db.get('audit', 2))!;
    // The store is keyed by seq, so moving b before a means giving them each other's seq.
    await db.put('audit', { ...b, seq: 1 });
    await db.put('audit', { ...a, seq: 2 });
    expect(await log.verify()).toMatchObject({ ok: false, seq: 1 });

    const intact = await (await logWith(5)).log.exportJsonl();
    expect(await verifyJsonl(intact)).toMatchObject({ ok: true, count: 5 });
    const lines = intact.trimEnd().split('\n');
    [lines[1], lines[2]] = [lines[2]!, lines[1]!];
    expect(await verifyJsonl(lines.join('\n'))).toMatchObject({ ok: false, seq: 1, problem: 'reordered' });
  });

  it('detects an inserted entry', async () => {
    const { db, log } = await logWith(4);
    const e = (await db.get('audit', 1))!;
    await db.put('audit', { ...e, seq: 1.5 } as never);
    expect(await log.verify()).toMatchObject({ ok: false, seq: 2, problem: 'inserted' });
  });

  it('serialises concurrent appends: one chain, no fork', async () => {
    const { log } = await logWith(0);
    const written = await Promise.all(Array.from({ length: 40 }, (_, i) => log.append(step(i))));
    expect(written.map((e) => e.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(await log.verify()).toMatchObject({ ok: true, count: 40 });
  });

  it('two writers on the same database never fork the chain', async () => {
    const db = await openDb();
    const a = new AuditLog(db);
    const b = new AuditLog(db);
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).append(step(i))));
    expect(await new AuditLog(db).verify()).toMatchObject({ ok: true, count: 10 });
  });

  it('continues the chain after a restart', async () => {
    const { db } = await logWith(2);
    const restarted = new AuditLog(db);
    const e = await restarted.append(step(2));
    expect(e.seq).toBe(2);
    expect(await restarted.verify()).toMatchObject({ ok: true, count: 3 });
  });

  it('exports JSON Lines, one canonical entry per line in seq order', async () => {
    const { log } = await logWith(3);
    const text = await log.exportJsonl();
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([0, 1, 2]);
    expect(lines[0]).toBe(canonicalJson((await log.entries())[0]));
    expect(text.endsWith('\n')).toBe(true);
  });
});

describe('the head anchor outside the log', () => {
  /** An anchor in memory, standing in for chrome.storage.local; it outlives the log object, as storage outlives a worker. */
  const memoryAnchor = () => {
    let head: { seq: number; hash: string } | undefined;
    return { load: async () => head, save: async (h: { seq: number; hash: string }) => void (head = h) };
  };

  it('a restarted log still notices that its newest entries were removed', async () => {
    const db = await openDb();
    const anchor = memoryAnchor();
    const first = new AuditLog(db, new FakeClock().now, anchor);
    for (let i = 0; i < 4; i++) await first.append(step(i));
    expect(await first.verify()).toMatchObject({ ok: true, count: 4 });

    // Someone deletes the two newest records; a new service worker opens the log.
    await db.delete('audit', 3);
    await db.delete('audit', 2);
    const unanchored = new AuditLog(db, new FakeClock().now);
    expect(await unanchored.verify()).toMatchObject({ ok: true, count: 2 });
    const restarted = new AuditLog(db, new FakeClock().now, anchor);
    expect(await restarted.verify()).toMatchObject({ ok: false, problem: 'truncated', seq: 2 });
  });

  it('the anchor follows every append, and an intact log verifies against it', async () => {
    const db = await openDb();
    const anchor = memoryAnchor();
    const log = new AuditLog(db, new FakeClock().now, anchor);
    const last = await log.append(step(0));
    await log.append(step(1));
    await log.verify();
    expect(await anchor.load()).toMatchObject({ seq: 1 });
    expect(last.seq).toBe(0);
    expect(await new AuditLog(db, new FakeClock().now, anchor).verify()).toMatchObject({ ok: true, count: 2 });
  });
});
