import { statSync } from 'node:fs';
import { connect } from 'node:net';
import type { Page } from '@playwright/test';
import { octetFrame } from '../bridge/src/audit/syslog-line.ts';
import type { AuditExportStatus } from '../src/protocol/audit-export.ts';
import type { AuditEntry } from '../src/protocol/audit.ts';
import { launchWithBridge, openSidePanel } from '../test/harness/bridge-harness.ts';
import { request, until } from '../test/harness/copilot-driver.ts';
import { rsyslog, type Rsyslog } from '../test/harness/rsyslog.ts';
import type { Row } from './report.ts';

/**
 * The audit export against a real rsyslog on this machine (test/fixtures/rsyslog/steward.conf):
 *   fleet.export_throughput entries_per_s: N entries waiting in the audit log (no target yet), the
 *     target set, until rsyslog has written all N lines to its file; anchor: the same lines written
 *     by Node straight to rsyslog's TCP port in one go (octet-counted), until they are in the file.
 *   fleet.export_throughput bytes_per_entry: rsyslog's file bytes per line; anchor: the extension's
 *     own JSONL export bytes per entry (the full entries, details and all).
 *   fleet.export_recovery_ms: 1,000 entries queued while rsyslog was down (the export has failed
 *     at least once), rsyslog started again, until the outbox is empty; anchor: the same 1,000
 *     lines written raw to the restarted rsyslog, until they are in the file.
 *   fleet.export_entries_per_action: audit entries one action writes (orders.cancel with an approval).
 */

const status = (panel: Page) => request<AuditExportStatus>(panel, { type: 'panel/audit-export-status' });
const lastSeq = async (panel: Page) => (await request<{ entries: AuditEntry[] }>(panel, { type: 'panel/audit', limit: 1 })).entries.at(-1)?.seq ?? -1;

/** Appends `n` audit entries the quick way: token mints (one entry each), 25 at a time. */
async function appendEntries(panel: Page, origin: string, n: number): Promise<void> {
  for (let done = 0; done < n; done += 25) {
    const batch = Math.min(25, n - done);
    await Promise.all(
      Array.from({ length: batch }, () => request(panel, { type: 'panel/token-mint', agent_id: 'agent:bench', scope: ['orders:read'], resource_scope: '*', origins: [origin], ttl_ms: 3_600_000 })),
    );
  }
}

/** Polls rsyslog's file (every 20 ms) until it holds `lines` lines; the time it took from `t0`. */
async function untilLines(collector: Rsyslog, lines: number, t0: number, timeout = 300_000): Promise<number> {
  for (;;) {
    if (collector.lines().length >= lines) return performance.now() - t0;
    if (performance.now() - t0 > timeout) throw new Error(`rsyslog held ${collector.lines().length} of ${lines} lines after ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The anchor: `messages` written by Node to rsyslog's port in one write; ms until all are in the file. */
async function rawWrite(collector: Rsyslog, messages: string[]): Promise<number> {
  const before = collector.lines().length;
  const t0 = performance.now();
  const socket = connect(collector.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  await new Promise<void>((resolve, reject) => socket.write(Buffer.concat(messages.map(octetFrame)), (e) => (e ? reject(e) : resolve())));
  const ms = await untilLines(collector, before + messages.length, t0);
  socket.destroy();
  return ms;
}

export async function auditExportRows(shopUrl: string, n = 1000): Promise<Row[]> {
  const collector = await rsyslog();
  const world = await launchWithBridge({ nativeWebMcp: false, allowSites: [shopUrl] });
  const origin = new URL(shopUrl).origin;
  try {
    const panel = await openSidePanel(world);
    const target = { host: '127.0.0.1', port: collector.port, tls: false };

    // Throughput: N entries waiting, then the target is set.
    await appendEntries(panel, origin, n);
    const t0 = performance.now();
    await request(panel, { type: 'panel/audit-export-target', target });
    const expected = (await lastSeq(panel)) + 1;
    const exportMs = await untilLines(collector, expected, t0);
    const fileBytes = statSync(collector.file).size;
    const { jsonl } = await request<{ jsonl: string }>(panel, { type: 'panel/audit-export' });
    const jsonlLines = jsonl.split('\n').filter((l) => l && !l.startsWith('{"signed_head"'));
    const jsonlBytes = jsonlLines.slice(0, expected).reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0);
    const sent = collector.lines().slice(0, expected);
    const anchorMs = await rawWrite(collector, sent);

    // Recovery: the collector is down while 1,000 entries queue; the export has failed at least once.
    await collector.stop();
    await appendEntries(panel, origin, 1000);
    await until('the export to notice the collector is down', async () => ((await status(panel)).problem ? true : undefined), 60_000);
    const behind = await status(panel);
    await collector.start();
    const r0 = performance.now();
    await until(
      'the outbox to empty',
      async () => {
        const s = await status(panel);
        return s.pending + s.waiting_in_log === 0 && s.problem === undefined ? true : undefined;
      },
      600_000,
    );
    const recoveryMs = performance.now() - r0;
    const recoveryAnchorMs = await rawWrite(collector, collector.lines().slice(-1000));

    return [
      {
        metric: 'fleet.export_throughput',
        case: 'entries_per_s',
        value: (expected / exportMs) * 1000,
        unit: 'entries/s',
        better: 'higher',
        anchor: 'raw TCP write of the same lines',
        anchor_value: (expected / anchorMs) * 1000,
        note: `${expected} entries waiting in the audit log, the target set, until rsyslog wrote them all (${Math.round(exportMs)} ms): worker → native messaging → steward-bridge → TCP → rsyslog's file, batches of up to 500 acknowledged one at a time.`,
      },
      {
        metric: 'fleet.export_throughput',
        case: 'bytes_per_entry',
        value: fileBytes / expected,
        unit: 'bytes',
        better: 'lower',
        anchor: 'JSONL export line (the full entry)',
        anchor_value: jsonlBytes / expected,
        note: 'rsyslog file bytes per line (RFC 5424, RSYSLOG_SyslogProtocol23Format, newline included; token mints, no resource); on the wire each line is framed with its length instead of the newline.',
      },
      {
        metric: 'fleet.export_recovery_ms',
        case: 'queued_1000',
        value: recoveryMs,
        unit: 'ms',
        better: 'lower',
        anchor: 'raw TCP write of the same 1,000 lines',
        anchor_value: recoveryAnchorMs,
        note: `${behind.pending + behind.waiting_in_log} entries waiting when rsyslog came back; includes the wait for the export's next retry (backoff 1 s doubling, capped at 5 min) after the failures while it was down.`,
      },
    ];
  } finally {
    await world.close().catch(() => undefined);
    await collector.remove().catch(() => undefined);
  }
}
