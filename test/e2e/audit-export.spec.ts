import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { Page } from '@playwright/test';
import { parseSyslogLine } from '../../bridge/src/audit/syslog-line.ts';
import { toExportRecord, type AuditExportStatus, type ExportRecord } from '../../src/protocol/audit-export.ts';
import type { AuditEntry } from '../../src/protocol/audit.ts';
import { test, expect, tabIdOf } from '../harness/fixtures.ts';
import { BRIDGE_CLI, freePort, launchWithBridge, openSidePanel, type BridgeBrowser } from '../harness/bridge-harness.ts';
import { showView } from '../harness/panel-helpers.ts';
import { approve, cancelAsObserved, control, data, killServiceWorker, mint, observe, pendingCard, shopOrderPage, submit } from '../harness/pipeline-helpers.ts';
import { rsyslog, type Rsyslog } from '../harness/rsyslog.ts';

/**
 * The audit export against a real rsyslog: the person points Settings at it, Steward's actions
 * go out as RFC 5424 lines through steward-bridge, the collector goes down while the worker is
 * killed, and once it is back every entry is there exactly as the extension's own export has it,
 * `steward-bridge audit verify` passes, and a tampered line fails it. A target that refuses the
 * connection or does not speak TLS is reported in Settings and in the audit.
 */

const status = (panel: Page) => data<AuditExportStatus>(control(panel, { type: 'panel/audit-export-status' }));

/** The extension's own export (JSON Lines), entries only. */
async function ownExport(panel: Page): Promise<AuditEntry[]> {
  const { jsonl } = await data<{ jsonl: string }>(control(panel, { type: 'panel/audit-export' }));
  return jsonl
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditEntry & { signed_head?: unknown })
    .filter((e) => e.signed_head === undefined);
}

/** What the collector holds, by seq (a duplicate after a retry must be the same entry). */
function collected(lines: string[]): { chain: Set<string>; bySeq: Map<number, ExportRecord>; duplicates: number } {
  const bySeq = new Map<number, ExportRecord>();
  const chain = new Set<string>();
  let duplicates = 0;
  for (const line of lines) {
    const parsed = parseSyslogLine(line);
    expect(parsed.kind, line).toBe('entry');
    if (parsed.kind !== 'entry') continue;
    chain.add(parsed.chain);
    const seen = bySeq.get(parsed.record.seq);
    if (seen) {
      expect(parsed.record, `seq ${parsed.record.seq} collected twice with different content`).toEqual(seen);
      duplicates++;
    }
    bySeq.set(parsed.record.seq, parsed.record);
  }
  return { chain, bySeq, duplicates };
}

function verify(files: string[]): { code: number | null; out: string } {
  const run = spawnSync(process.execPath, [BRIDGE_CLI, 'audit', 'verify', ...files], { encoding: 'utf8', timeout: 20_000 });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

async function setTarget(panel: Page, host: string, port: number, tls: boolean): Promise<void> {
  await showView(panel, 'Settings');
  await panel.getByLabel('Collector host').fill(host);
  await panel.getByLabel('Port', { exact: true }).fill(String(port));
  await panel.getByLabel('TLS (RFC 5425)').setChecked(tls);
  // Settings' one Save stores the target with the rest.
  await panel.getByRole('button', { name: 'Save settings' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Settings saved.' })).toContainText('Audit export target saved.');
}

const mintSome = async (panel: Page, origin: string, n: number) => {
  for (let i = 0; i < n; i++) await mint(panel, { scope: ['orders:read'], resource_scope: '*', origins: [origin] });
};

test.describe.serial('audit export to the organisation’s syslog (a real rsyslog)', () => {
  let collector: Rsyslog;
  let world: BridgeBrowser;
  let panel: Page;
  let shopOrigin: string;

  test.beforeAll(async ({ sites }) => {
    for (const url of Object.values(sites.urls)) await fetch(new URL('/__demo/reset', url), { method: 'POST' });
    collector = await rsyslog();
    shopOrigin = new URL(sites.urls.shop!).origin;
    world = await launchWithBridge({ nativeWebMcp: false, allowSites: [sites.urls.shop!] });
    panel = await openSidePanel(world);
  });

  test.afterAll(async () => {
    await world?.close();
    await collector?.remove();
  });

  test('every entry reaches rsyslog exactly as logged, through a killed worker and a collector that was down; audit verify passes, and fails on a tampered line', async ({ sites }) => {
    test.setTimeout(180_000);
    await setTarget(panel, '127.0.0.1', collector.port, false);
    const line = panel.locator('.audit-export-status');
    await expect(line).toContainText(`Audit export to TCP 127.0.0.1:${collector.port}: up to date`, { timeout: 20_000 });

    // An action with an approval, as an agent runs it.
    const page = await shopOrderPage(world.context, sites.urls.shop!);
    const tabId = await tabIdOf(world.serviceWorker, page);
    const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [shopOrigin] });
    const before = await observe(panel, tabId);
    const first = (await data(submit(panel, { token, tabId, request: cancelAsObserved(before, 'delivery_too_slow', 'export-e2e-1'), wait_for_approval: false }))).result;
    expect(first).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
    await approve(panel, await pendingCard(panel, 'orders.cancel'));
    await expect.poll(async () => (await ownExport(panel)).some((e) => e.kind === 'confirmation'), { timeout: 30_000 }).toBe(true);
    await expect.poll(async () => collector.lines().length, { timeout: 30_000 }).toBeGreaterThanOrEqual((await ownExport(panel)).length);

    // The collector goes down; entries keep coming and wait; Settings says why.
    await collector.stop();
    await mintSome(panel, shopOrigin, 3);
    await expect(line).toContainText('failing', { timeout: 30_000 });
    await expect(line).toContainText(`refused the connection`);
    expect((await status(panel)).pending + (await status(panel)).waiting_in_log).toBeGreaterThan(0);

    // The worker is killed with entries waiting; more come after its restart.
    await killServiceWorker(panel, world.serviceWorker);
    await mintSome(panel, shopOrigin, 2);
    const waiting = await status(panel);
    expect(waiting.pending + waiting.waiting_in_log, 'the outbox survived the worker').toBeGreaterThanOrEqual(5);

    // The collector is back: the outbox empties by itself (retry, or the alarm).
    await collector.start();
    await expect
      .poll(
        async () => {
          const [s, entries] = await Promise.all([status(panel), ownExport(panel)]);
          return s.pending + s.waiting_in_log === 0 && s.problem === undefined && s.sent_through === entries.at(-1)!.seq;
        },
        { timeout: 90_000, intervals: [500] },
      )
      .toBe(true);
    await expect(line).toContainText('up to date');

    // Every entry, exactly as the extension logged it (its own export), once or as identical duplicates.
    const entries = await ownExport(panel);
    // Sizing for docs/ADMIN.md, from this run: entries one approved action wrote, bytes per collected line.
    const perAction = entries.filter((e) => e.idempotency_key === 'export-e2e-1').map((e) => e.kind);
    const sizes = collector.lines().map((l) => Buffer.byteLength(l) + 1);
    console.log(
      `sizing: orders.cancel with approval wrote ${perAction.length} entries (${perAction.join(', ')}); ${sizes.length} lines, ${Math.min(...sizes)}–${Math.max(...sizes)} bytes, mean ${Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length)}`,
    );
    const { chain, bySeq } = collected(collector.lines());
    expect([...chain]).toEqual([(await status(panel)).chain]);
    expect([...bySeq.keys()].sort((a, b) => a - b)).toEqual(entries.map((e) => e.seq));
    for (const entry of entries) expect(bySeq.get(entry.seq), `seq ${entry.seq}`).toEqual(toExportRecord(entry));
    // The outage itself is in the chain, and reached the collector after it came back.
    expect(entries.filter((e) => e.kind === 'export').map((e) => e.outcome)).toEqual(expect.arrayContaining(['target_set', 'collector_unreachable', 'collector_back']));
    // No page content or secrets: the lines carry none of the entries' details or tokens.
    const text = collector.lines().join('\n');
    expect(text).not.toContain('delivery_too_slow');
    expect(text).not.toContain(token);

    const passed = verify([collector.file]);
    expect(passed.code, passed.out).toBe(0);
    expect(passed.out).toContain(`${[...chain][0]}: seq 0–${entries.at(-1)!.seq}, ${entries.length} entries`);

    // One line edited (a denial made to look approved): verify names it and exits non-zero.
    const lines = collector.lines();
    const victim = lines.findIndex((l) => l.includes('kind="approval"'));
    expect(victim).toBeGreaterThanOrEqual(0);
    const tampered = `${collector.file}.tampered`;
    writeFileSync(tampered, `${lines.map((l, i) => (i === victim ? l.replace('outcome="approved"', 'outcome="denied"') : l)).join('\n')}\n`);
    const failed = verify([tampered]);
    expect(failed.code).toBe(1);
    expect(failed.out).toContain(`${tampered}:${victim + 1}:`);
    expect(failed.out).toContain('tampered');
    // And one line removed: the gap is named.
    writeFileSync(tampered, `${lines.filter((_, i) => i !== victim).join('\n')}\n`);
    expect(verify([tampered]).out).toMatch(/gap: seq \d+ is missing/);
    expect(() => execFileSync(process.execPath, [BRIDGE_CLI, 'audit', 'verify', tampered], { stdio: 'pipe' })).toThrow();
  });

  test('a collector that refuses the connection or does not speak TLS: a clear report in Settings and in the audit', async () => {
    // A port where something listens but answers a TLS hello with plain text, as a plain syslog port would.
    const plain: Server = createServer((socket) => socket.end('this is not TLS\n'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', () => resolve()));
    const plainPort = (plain.address() as { port: number }).port;
    try {
      const line = panel.locator('.audit-export-status');
      await setTarget(panel, '127.0.0.1', plainPort, true);
      await expect(line).toContainText(`Audit export to TLS 127.0.0.1:${plainPort}: failing`, { timeout: 30_000 });
      await expect(line).toContainText(`TLS with the collector at tls://127.0.0.1:${plainPort} failed`);

      const closed = await freePort();
      await setTarget(panel, '127.0.0.1', closed, false);
      await expect(line).toContainText(`The collector at tcp://127.0.0.1:${closed} refused the connection`, { timeout: 30_000 });
      await expect(line).toContainText(/Next attempt in \d+ s/);

      const reports = (await ownExport(panel)).filter((e) => e.kind === 'export' && e.outcome === 'collector_unreachable').map((e) => String(e.details?.problem));
      expect(reports).toEqual(expect.arrayContaining([expect.stringContaining('TLS with the collector'), expect.stringContaining('refused the connection')]));

      // An empty host sends nothing.
      await panel.getByLabel('Collector host').fill('');
      await panel.getByRole('button', { name: 'Save settings' }).click();
      await expect(panel.getByRole('status').filter({ hasText: 'Settings saved.' })).toContainText('Audit export stopped.');
      await expect(line).toContainText('Audit export: off');
    } finally {
      plain.close();
    }
  });
});
