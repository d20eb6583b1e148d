import { AUDIT_EXPORT_TARGET_KEY, AuditExportTarget, type AuditExportBatch, type AuditExportResult, type AuditExportStatus } from '../../protocol/audit-export.ts';
import type { PanelPush } from '../../protocol/panel-channel.ts';
import type { AuditExportPorts, AuditExporter } from '../../pipeline/audit-export/exporter.ts';
import { exportTargetInForce } from '../../protocol/policy-rules.ts';
import type { ManagedPolicy } from '../core/managed-policy.ts';
import { browser } from '../core/browser.ts';
import type { Phrase } from '../../protocol/phrase.ts';

/**
 * The audit export's ports on Chrome: the target in force (the organisation's managed policy's
 * `auditExport` when it sets one, else the person's from chrome.storage.local, set in Settings),
 * batches over the bridge's native link, and a chrome.alarms wake-up so a worker killed mid-retry
 * resumes. The exporter itself (outbox, retries) lives with the pipeline (src/pipeline/audit-export/).
 */

const AUDIT_EXPORT_ALARM = 'steward.audit-export';
/**
 * The target in force when it was last put on record: a policy change made while the worker was
 * stopped (Chrome starts it for storage.onChanged, and its first reading is already the new one)
 * is still recorded as a change.
 */
const APPLIED_TARGET_KEY = 'steward.audit_export_applied';

const sameTarget = (a: AuditExportTarget | null, b: AuditExportTarget | null) => JSON.stringify(a) === JSON.stringify(b);

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

async function appliedTarget(): Promise<AuditExportTarget | null | undefined> {
  const raw = (await browser.storage.local.get(APPLIED_TARGET_KEY))[APPLIED_TARGET_KEY] as { target?: unknown } | undefined;
  if (raw === undefined) return undefined;
  const parsed = AuditExportTarget.nullable().safeParse(raw.target ?? null);
  return parsed.success ? parsed.data : null;
}

export function wireAuditExport(deps: {
  /** The pipeline's exporter, once it has started. */
  exporter: () => Promise<AuditExporter | undefined>;
  /** Posts to steward-bridge over the native link: true, or why not. */
  post(batch: AuditExportBatch): true | string | { text: string; said: Phrase };
  push(message: PanelPush): void;
  /** The organisation's policy: its `auditExport` overrides the person's target. */
  policy: Pick<ManagedPolicy, 'read' | 'onChange'>;
}) {
  const inForce = async () => exportTargetInForce((await deps.policy.read()).policy, await storedTarget());
  const ports: AuditExportPorts = {
    target: async () => (await inForce()).target,
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

  const status = async (e: AuditExporter): Promise<AuditExportStatus> => ({ ...(await e.status()), ...((await inForce()).managed ? { managed: true } : {}) });

  /** One change of the target in force at a time, each put on record against the one before. */
  let changes: Promise<void> = Promise.resolve();
  const serially = (run: () => Promise<void>) => {
    const next = changes.then(run);
    changes = next.catch(() => undefined);
    return next;
  };
  const remember = (target: AuditExportTarget | null) => browser.storage.local.set({ [APPLIED_TARGET_KEY]: { target } });

  /** The policy read at start, and every policy Chrome reloads: the organisation's target takes effect without a restart, on record. */
  const policyChanged = () =>
    void serially(async () => {
      const e = await exporter();
      const [from, now] = await Promise.all([appliedTarget(), inForce()]);
      await remember(now.target);
      // No record yet (a first start): nothing to compare with, but the organisation's target still goes on record.
      const changed = from === undefined ? now.managed && now.target !== null : !sameTarget(from, now.target);
      if (changed) await e.targetChanged({ to: now.target, from: from ?? null, by: 'organisation:policy' });
    }).catch((e) => console.warn('audit export: the policy’s target could not be applied', e));
  void deps.policy.read().then(policyChanged);
  deps.policy.onChange(policyChanged);

  const control: AuditExportControl = {
    status: async () => status(await exporter()),
    async setTarget(target) {
      const e = await exporter();
      await serially(async () => {
        const before = await inForce();
        // The worker holds to the policy whatever the panel shows.
        if (before.managed) throw new Error('Your organisation sets the audit export target; it cannot be changed here.');
        if (target) await browser.storage.local.set({ [AUDIT_EXPORT_TARGET_KEY]: target });
        else await browser.storage.local.remove(AUDIT_EXPORT_TARGET_KEY);
        await remember(target);
        await e.targetChanged({ to: target, from: before.target, by: 'user:local' });
      });
      return status(e);
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
