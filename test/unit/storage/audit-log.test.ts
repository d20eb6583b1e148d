import { describe, expect, it, vi } from 'vitest';
import { AUDIT_GENESIS_HASH, AuditEntry } from '../../../src/protocol/audit.ts';
import { canonicalJson } from '../../../src/base/canonical-json.ts';
import { sha256Hex } from '../../../src/base/hash.ts';
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

  it('exports JSON Lines, one canonical entry per line in seq order, then the signed head', async () => {
    const { log } = await logWith(3);
    const text = await log.exportJsonl();
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.slice(0, 3).map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([0, 1, 2]);
    expect(lines[0]).toBe(canonicalJson((await log.entries())[0]));
    expect(JSON.parse(lines[3]!)).toEqual({ signed_head: { seq: 2, hash: (await log.entries())[2]!.hash, mac: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(text.endsWith('\n')).toBe(true);
  });
});

/** A copy of the signed head in memory, standing in for chrome.storage.local; it outlives the log object, as storage outlives a worker. */
const memoryAnchor = () => {
  let head: unknown;
  return { load: async () => head, save: async (h: unknown) => void (head = h) };
};

describe('the signed head', () => {
  it('truncation: newest entries removed before a restart are found before the next append, recorded, and reported for good', async () => {
    const db = await openDb();
    const first = new AuditLog(db, new FakeClock().now);
    for (let i = 0; i < 5; i++) await first.append(step(i));
    const removed = (await db.get('audit', 4))!;

    // Someone with storage access deletes the two newest records; a new service worker opens the log.
    await db.delete('audit', 4);
    await db.delete('audit', 3);
    const restarted = new AuditLog(db, new FakeClock().now);
    expect(await restarted.verify()).toMatchObject({ ok: false, seq: 3, problem: 'truncated' });

    // The next append does not quietly take seq 3 and 4 over: the break is written first.
    const next = await restarted.append(step(5));
    expect(next.seq).toBe(4);
    const entries = await restarted.entries();
    expect(entries[3]).toMatchObject({ kind: 'recovery', agent_id: 'agent:steward', outcome: 'audit_chain_broken', details: { seq: 3, problem: 'truncated', found_head: { seq: 2 } } });
    expect((entries[3]!.details as { message: string }).message).toContain('Steward last wrote entry 4');
    const verdict = await restarted.verify();
    expect(verdict).toMatchObject({ ok: false, seq: 3, problem: 'truncated', message: expect.stringContaining('entry 3 records') });
    // Another restart still says so, and so does the export.
    expect(await new AuditLog(db, new FakeClock().now).verify()).toEqual(verdict);
    expect(await restarted.verifyExport(await restarted.exportJsonl())).toMatchObject({ ok: false, problem: 'truncated' });
    // Putting a removed record back cannot mend it either: its seq is taken.
    await expect(db.add('audit', removed)).rejects.toThrow();
  });

  it('a chain rewritten to its end without the key is detected, before and after the next append', async () => {
    const { db } = await logWith(4);
    // Edit entry 1 and re-hash everything after it: every link holds, only the signature cannot be redone.
    let prev = (await db.get('audit', 0))!.hash;
    for (let seq = 1; seq < 4; seq++) {
      const { hash: _h, ...body } = (await db.get('audit', seq))!;
      const resealed = await sealAuditEntry({ ...body, prev_hash: prev, ...(seq === 1 ? { outcome: 'confirmed' } : {}) });
      await db.put('audit', resealed);
      prev = resealed.hash;
    }
    const restarted = new AuditLog(db, new FakeClock().now);
    expect(await restarted.verify()).toMatchObject({ ok: false, seq: 3, problem: 'rewritten' });
    await restarted.append(step(4));
    expect(await restarted.verify()).toMatchObject({ ok: false, seq: 3, problem: 'rewritten' });
  });

  it('a signed head made with another key, or none at all, is refused', async () => {
    const { db } = await logWith(3);
    const other = await openDb();
    await new AuditLog(other).append(step(0));
    const foreign = await other.get('audit_seal', 'head');
    // A head signed by another Steward (another key), claiming the stored head.
    await db.put('audit_seal', { ...(foreign as object), seq: 2, hash: (await db.get('audit', 2))!.hash } as never, 'head');
    expect(await new AuditLog(db).verify()).toMatchObject({ ok: false, problem: 'unsigned' });
    await db.delete('audit_seal', 'head');
    expect(await new AuditLog(db).verify()).toMatchObject({ ok: false, seq: 0, problem: 'unsigned', message: expect.stringContaining('no signed head') });
  });

  it('rolling the log and its signed head back together is caught by the copy outside IndexedDB', async () => {
    const db = await openDb();
    const anchor = memoryAnchor();
    const log = new AuditLog(db, new FakeClock().now, anchor);
    for (let i = 0; i < 3; i++) await log.append(step(i));
    const older = await db.get('audit_seal', 'head');
    for (let i = 3; i < 5; i++) await log.append(step(i));
    await log.verify();
    await db.delete('audit', 4);
    await db.delete('audit', 3);
    await db.put('audit_seal', older!, 'head');
    expect(await new AuditLog(db, new FakeClock().now).verify()).toMatchObject({ ok: true, count: 3 });
    expect(await new AuditLog(db, new FakeClock().now, anchor).verify()).toMatchObject({ ok: false, seq: 3, problem: 'truncated', message: expect.stringContaining('rolled back from entry 4') });
  });

  it('a database removed with the key is caught by the copy; a first start is not', async () => {
    const anchor = memoryAnchor();
    const first = await openDb();
    const log = new AuditLog(first, new FakeClock().now, anchor);
    for (let i = 0; i < 3; i++) await log.append(step(i));
    await log.verify();
    expect(await new AuditLog(await openDb(), new FakeClock().now).verify()).toMatchObject({ ok: true, count: 0 });
    expect(await new AuditLog(await openDb(), new FakeClock().now, anchor).verify()).toMatchObject({ ok: false, seq: 0, problem: 'truncated', message: expect.stringContaining('up to 2') });
  });

  it('an intact log verifies across restarts, and its copy follows every append', async () => {
    const db = await openDb();
    const anchor = memoryAnchor();
    const log = new AuditLog(db, new FakeClock().now, anchor);
    await log.append(step(0));
    await log.append(step(1));
    await log.verify();
    expect(await anchor.load()).toMatchObject({ seq: 1, mac: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await new AuditLog(db, new FakeClock().now, anchor).verify()).toMatchObject({ ok: true, count: 2 });
  });

  it('an export verifies only with its signed head intact, its entries complete, and the same key', async () => {
    const { log } = await logWith(4);
    const text = await log.exportJsonl();
    expect(await log.verifyExport(text)).toMatchObject({ ok: true, count: 4 });
    const lines = text.trimEnd().split('\n');
    const head = lines.at(-1)!;
    // The newest entry cut out, the head kept.
    expect(await log.verifyExport([...lines.slice(0, 3), head].join('\n'))).toMatchObject({ ok: false, seq: 3, problem: 'truncated' });
    // Cut short with the head.
    expect(await log.verifyExport(lines.slice(0, 3).join('\n'))).toMatchObject({ ok: false, problem: 'unsigned' });
    // A forged MAC, or a head signed by another Steward.
    const forged = JSON.parse(head) as { signed_head: { mac: string } };
    forged.signed_head.mac = '0'.repeat(64);
    expect(await log.verifyExport([...lines.slice(0, 4), JSON.stringify(forged)].join('\n'))).toMatchObject({ ok: false, problem: 'unsigned' });
    expect(await (await logWith(0)).log.verifyExport(text)).toMatchObject({ ok: false, problem: 'unsigned' });
    // Without the key, anyone can still check the entries against the head they claim.
    expect(await verifyJsonl(text)).toMatchObject({ ok: true, count: 4 });
  });

  it('an entry whose head cannot be signed is not stored', async () => {
    const { db, log } = await logWith(2);
    const sign = vi.spyOn(crypto.subtle, 'sign').mockRejectedValueOnce(new Error('no key'));
    try {
      await expect(log.append(step(2))).rejects.toThrow('no key');
    } finally {
      sign.mockRestore();
    }
    expect(await db.count('audit')).toBe(2);
    expect((await log.append(step(3))).seq).toBe(2);
    expect(await log.verify()).toMatchObject({ ok: true, count: 3 });
  });
});
