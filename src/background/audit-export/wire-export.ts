import { AUDIT_EXPORT_TARGET_KEY, AuditExportTarget, type AuditExportBatch, type AuditExportStatus } from '../../protocol/audit-export.ts';
import type { PanelPush } from '../../protocol/panel-channel.ts';
import { AuditExporter } from '../../pipeline/audit-export/exporter.ts';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import { AuditOutbox } from '../../storage/audit-outbox.ts';
import { openStewardDb } from '../../storage/db.ts';
import { browser } from '../browser.ts';

/**
 * The audit export on Chrome: the target from chrome.storage.local (the person's, set in
 * Settings; the organisation's managed policy will take its place), the outbox in the worker's
 * IndexedDB, batches over the bridge's native link, and a chrome.alarms wake-up so a worker
 * killed mid-retry resumes. Who writes `export` entries: Steward itself (`agent:steward`).
 */

const AUDIT_EXPORT_ALARM = 'steward.audit-export';
const STEWARD_AGENT = 'agent:steward';

export interface AuditExportControl {
  status(): Promise<AuditExportStatus>;
  setTarget(target: AuditExportTarget | null): Promise<AuditExportStatus>;
}

async function storedTarget(): Promise<AuditExportTarget | null> {
  const raw = (await browser.storage.local.get(AUDIT_EXPORT_TARGET_KEY))[AUDIT_EXPORT_TARGET_KEY];
  if (raw === undefined || raw === null) return null;
  const parsed = AuditExportTarget.safeParse(raw);
  if (!parsed.success) console.warn('audit export: the stored target is invalid; no export until it is set again', parsed.error.issues[0]?.message);
  return parsed.success ? parsed.data : null;
}

export function wireAuditExport(deps: {
  pipeline: () => Promise<Pipeline>;
  /** Posts to steward-bridge over the native link: true, or why not. */
  post(batch: AuditExportBatch): true | string;
  push(message: PanelPush): void;
}) {
  const outboxReady = openStewardDb().then((db) => new AuditOutbox(db));
  const outbox = {
    state: () => outboxReady.then((o) => o.state()),
    fill: () => outboxReady.then((o) => o.fill()),
    peek: (max: number) => outboxReady.then((o) => o.peek(max)),
    sent: (seq: number, at: string) => outboxReady.then((o) => o.sent(seq, at)),
    counts: () => outboxReady.then((o) => o.counts()),
    setNearlyFullReported: (v: boolean) => outboxReady.then((o) => o.setNearlyFullReported(v)),
  };
  const audit = async (outcome: string, details: Record<string, unknown>) => {
    await (await deps.pipeline()).deps.audit.append({ kind: 'export', agent_id: STEWARD_AGENT, outcome, details });
  };
  const exporter = new AuditExporter({
    outbox,
    target: storedTarget,
    post: deps.post,
    audit,
    onChange: () => deps.push({ type: 'panel/audit-export-changed' }),
    scheduleWake: (ms) => {
      // Chrome wakes a stopped worker for an alarm no sooner than 30 s.
      if (ms === undefined) void browser.alarms.clear(AUDIT_EXPORT_ALARM);
      else void browser.alarms.create(AUDIT_EXPORT_ALARM, { delayInMinutes: Math.max(0.5, ms / 60_000) });
    },
    log: (m) => console.warn(m),
  });

  const control: AuditExportControl = {
    status: () => exporter.status(),
    async setTarget(target) {
      const before = await storedTarget();
      if (target) await browser.storage.local.set({ [AUDIT_EXPORT_TARGET_KEY]: target });
      else await browser.storage.local.remove(AUDIT_EXPORT_TARGET_KEY);
      // The change is on record before anything goes to the new target (and is the first thing it receives).
      await audit(target ? 'target_set' : 'target_cleared', {
        set_by: 'user:local',
        ...(target ? { host: target.host, port: target.port, tls: target.tls } : {}),
        ...(before ? { was: { host: before.host, port: before.port, tls: before.tls } } : {}),
      });
      exporter.targetChanged();
      return exporter.status();
    },
  };

  return {
    exporter,
    control,
    /** Every audit append: copy and send, unless a retry is already scheduled. */
    onAudit: () => exporter.kick(),
    onAlarm: (name: string) => {
      if (name === AUDIT_EXPORT_ALARM) exporter.wake();
      return name === AUDIT_EXPORT_ALARM;
    },
  };
}
