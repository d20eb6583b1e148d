import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAudit } from '../../../bridge/src/audit/command.ts';
import { AuditLog } from '../../../src/storage/audit-log.ts';
import { clearThrough, retentionThrough } from '../../../src/storage/audit-retention.ts';
import { FakeClock, openDb } from '../storage/helpers.ts';

const DAY = 24 * 60 * 60 * 1000;

/** A log as the panel downloads it: ten entries a day apart, the older ones removed by a 3-day retention. */
async function download(): Promise<string> {
  const clock = new FakeClock();
  const log = new AuditLog(await openDb(), clock.now);
  for (let i = 0; i < 10; i++) {
    await log.append({ kind: 'token', agent_id: 'agent:copilot', token_id: 'tok_1', outcome: 'minted', details: { i } });
    clock.advance(DAY);
  }
  await log.removeOldest((entries) => retentionThrough(entries, 3, clock.now()), { reason: 'retention', retention_days: 3, by: 'retention' });
  return log.exportJsonl();
}

async function verifyFile(text: string): Promise<{ code: number; out: string; err: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'steward-audit-')), 'steward-audit.jsonl');
  writeFileSync(file, text);
  let out = '';
  let err = '';
  const code = await runAudit(['verify', file], { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe('steward-bridge audit verify on a log downloaded from the panel', () => {
  it('passes the download, naming the removed entries and the head', async () => {
    const r = await verifyFile(await download());
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/seq 7–10, 4 entries, unbroken \(entries through seq 6 were removed, as the log records\); head [0-9a-f]{64}/);
  });

  it('fails an edited entry, a removed line, and a file cut short before its head', async () => {
    const lines = (await download()).trimEnd().split('\n');
    const edited = lines.map((l, i) => (i === 2 ? l.replace('"minted"', '"revoked"') : l));
    expect(await verifyFile(edited.join('\n'))).toMatchObject({ code: 1, err: expect.stringContaining('seq 8: edited') });
    expect((await verifyFile(lines.filter((_, i) => i !== 2).join('\n'))).code).toBe(1);
    expect(await verifyFile(lines.slice(0, -1).join('\n'))).toMatchObject({ code: 1, err: expect.stringContaining('unsigned') });
  });

  it('passes a cleared log: one entry recording the clear, chained to what was removed', async () => {
    const log = new AuditLog(await openDb());
    for (let i = 0; i < 3; i++) await log.append({ kind: 'token', agent_id: 'agent:copilot', token_id: 'tok_1', outcome: 'minted' });
    await log.removeOldest((entries) => clearThrough(entries.at(-1)?.seq), { reason: 'cleared', by: 'user:local' });
    expect(await verifyFile(await log.exportJsonl())).toMatchObject({ code: 0, out: expect.stringContaining('seq 3–3, 1 entry,') });
  });
});
