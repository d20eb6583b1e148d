import { AUDIT_EXPORT_TARGET_KEY, AuditExportTarget, type AuditExportBatch, type AuditExportResult, type AuditExportStatus } from '../../protocol/audit-export.ts';
import type { PanelPush } from '../../protocol/panel-channel.ts';
import type { AuditExportPorts, AuditExporter } from '../../pipeline/audit-export/exporter.ts';
import { browser } from '../browser.ts';

/**
 * The audit export's ports on Chrome: the target from chrome.storage.local (the person's, set in
 * Settings; the organisation's managed policy will take its place), batches over the bridge's
 * native link, and a chrome.alarms wake-up so a worker killed mid-retry resumes. The exporter
 * itself (outbox, retries) lives with the pipeline (src/pipeline/audit-export/).
 */

const AUDIT_EXPORT_ALARM = 'steward.audit-export';

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
  /** The pipeline's exporter, once it has started. */
  exporter: () => Promise<AuditExporter | undefined>;
  /** Posts to steward-bridge over the native link: true, or why not. */
  post(batch: AuditExportBatch): true | string;
  push(message: PanelPush): void;
}) {
  const ports: AuditExportPorts = {
    target: storedTarget,
    post: (batch) => deps.post(batch),
    onChange: () => deps.push({ type: 'panel/audit-export-changed' }),
    scheduleWake: (ms) => {
      // Chrome wakes a stopped worker for an alarm no sooner than 30 s.
      if (ms === undefined) void browser.alarms.clear(AUDIT_EXPORT_ALARM);
      else void browser.alarms.create(AUDIT_EXPORT_ALARM, { delayInMinutes: Math.max(0.5, ms / 60_000) });
    },
    log: (m) => console.warn(m),
  };
  const exporter = async () => {
    const e = await deps.exporter();
    if (!e) throw new Error('The audit export is not available here.');
    return e;
  };
  const later = (use: (e: AuditExporter) => void) =>
    void deps.exporter().then(
      (e) => e && use(e),
      () => undefined,
    );

  const control: AuditExportControl = {
    status: async () => (await exporter()).status(),
    async setTarget(target) {
      const e = await exporter();
      const before = await storedTarget();
      if (target) await browser.storage.local.set({ [AUDIT_EXPORT_TARGET_KEY]: target });
      else await browser.storage.local.remove(AUDIT_EXPORT_TARGET_KEY);
      await e.targetChanged({ to: target, from: before, by: 'user:local' });
      return e.status();
    },
  };

  return {
    ports,
    control,
    /** The host answered a batch. */
    result: (r: AuditExportResult) => later((e) => e.onResult(r)),
    /** The native link is up, or the worker has just started: try now. */
    wake: () => later((e) => e.wake()),
    onAlarm: (name: string) => {
      if (name === AUDIT_EXPORT_ALARM) later((e) => e.wake());
      return name === AUDIT_EXPORT_ALARM;
    },
  };
}
