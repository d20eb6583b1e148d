import { describe, expect, it } from 'vitest';
import { wireAuditExport } from '../../../../src/background/audit-export/wire-export.ts';
import { AuditExporter } from '../../../../src/pipeline/audit-export/exporter.ts';
import { parsePolicy, type ParsedPolicy } from '../../../../src/protocol/managed-policy.ts';
import type { AuditExportBatch } from '../../../../src/protocol/audit-export.ts';
import { AuditLog } from '../../../../src/storage/audit-log.ts';
import { AuditOutbox } from '../../../../src/storage/audit-outbox.ts';
import { openDb } from '../../storage/helpers.ts';

const PERSON = { host: 'my-collector.example', port: 514, tls: false };
const ORG = { host: 'logs.example.com', port: 6514, tls: true, server_name: 'collector.example.com' };
const flush = () => new Promise((r) => setTimeout(r, 0));

/** The worker's policy as Chrome reloads it: the test rewrites it. */
function fakePolicy(raw: unknown) {
  let parsed: ParsedPolicy = parsePolicy(raw);
  const listeners: Array<(p: ParsedPolicy) => void> = [];
  return {
    read: async () => parsed,
    onChange: (l: (p: ParsedPolicy) => void) => void listeners.push(l),
    set(next: unknown) {
      parsed = parsePolicy(next);
      for (const l of listeners) l(parsed);
    },
  };
}

/** One worker's audit export over a shared audit log (a restart is a second `worker`, same log). */
async function world() {
  const db = await openDb();
  const log = new AuditLog(db, Date.now);
  const outbox = new AuditOutbox(db);
  const posted: AuditExportBatch[] = [];
  const worker = (policy: ReturnType<typeof fakePolicy>) => {
    const made: { exporter?: AuditExporter } = {};
    // The collector takes every batch.
    const post = (b: AuditExportBatch) => {
      posted.push(b);
      setTimeout(() => made.exporter?.onResult({ kind: 'audit-export-result', batch: b.batch, ok: true, through_seq: b.records.at(-1)!.seq, bytes: 1 }), 0);
      return true as const;
    };
    const wired = wireAuditExport({ exporter: async () => made.exporter, post, push: () => undefined, policy });
    made.exporter = new AuditExporter({
      ...wired.ports,
      outbox,
      audit: async (outcome, details) => void (await log.append({ kind: 'export', agent_id: 'agent:steward', outcome, details })),
      setTimer: () => 0,
      clearTimer: () => undefined,
    });
    return wired.control;
  };
  const targetEntries = async () => (await log.entries()).filter((e) => e.kind === 'export' && String(e.outcome).startsWith('target_')).map((e) => ({ outcome: e.outcome, ...e.details }));
  return { worker, posted, targetEntries };
}

describe("audit export: the organisation's target over the person's", () => {
  it('the policy target overrides the person’s, goes on record, cannot be changed in Settings, and gives way when the policy drops it', async () => {
    const w = await world();
    const policy = fakePolicy({});
    const control = w.worker(policy);
    await flush();
    await control.setTarget(PERSON);
    expect(await control.status()).toMatchObject({ target: PERSON });
    expect((await control.status()).managed).toBeUndefined();

    policy.set({ auditExport: ORG });
    await expect.poll(() => control.status()).toMatchObject({ target: ORG, managed: true });
    // Batches go to the organisation's collector, in the export's own shape (server_name included).
    await expect.poll(() => w.posted.at(-1)?.target).toEqual(ORG);
    await expect(control.setTarget(null)).rejects.toThrow('Your organisation sets the audit export target');
    await expect(control.setTarget(PERSON)).rejects.toThrow('Your organisation sets');
    expect(await control.status()).toMatchObject({ target: ORG, managed: true });

    policy.set({ copilotEnabled: false });
    await expect.poll(() => control.status()).toMatchObject({ target: PERSON });
    expect(await w.targetEntries()).toEqual([
      { outcome: 'target_set', set_by: 'user:local', host: PERSON.host, port: PERSON.port, tls: false },
      { outcome: 'target_set', set_by: 'organisation:policy', host: ORG.host, port: ORG.port, tls: true, was: { host: PERSON.host, port: PERSON.port, tls: false } },
      { outcome: 'target_set', set_by: 'organisation:policy', host: PERSON.host, port: PERSON.port, tls: false, was: { host: ORG.host, port: ORG.port, tls: true } },
    ]);
  });

  it('a policy target set while the worker was stopped goes on record when it starts; the same policy read again adds nothing', async () => {
    const w = await world();
    w.worker(fakePolicy({}));
    await flush();
    // Chrome starts a new worker with the policy already changed: its first reading is the new one.
    const control = w.worker(fakePolicy({ auditExport: ORG }));
    await expect.poll(() => w.targetEntries()).toHaveLength(1);
    expect((await w.targetEntries())[0]).toMatchObject({ outcome: 'target_set', set_by: 'organisation:policy', host: ORG.host });
    expect(await control.status()).toMatchObject({ target: ORG, managed: true });
    w.worker(fakePolicy({ auditExport: ORG }));
    await flush();
    await flush();
    expect(await w.targetEntries()).toHaveLength(1);
  });

  it('a policy target that does not read sends nothing, and the person’s target does not stand in', async () => {
    const w = await world();
    const policy = fakePolicy({});
    const control = w.worker(policy);
    await flush();
    await control.setTarget(PERSON);
    policy.set({ auditExport: { ...ORG, tls: false } });
    await expect.poll(() => control.status()).toMatchObject({ target: null, managed: true });
    expect((await w.targetEntries()).at(-1)).toMatchObject({ outcome: 'target_cleared', set_by: 'organisation:policy' });
  });
});
