import { t, uiLocale } from '../../base/i18n.ts';
import { AuditExportTarget, type AuditExportStatus } from '../../protocol/audit-export.ts';

/** The words Settings shows for the audit export. Pure. */
export function auditExportWords(s: AuditExportStatus, now: number): { headline: string; lines: string[]; alert: boolean } {
  if (!s.target) {
    const waiting = s.pending > 0 ? [t('keeping_export_outbox_left', s.pending)] : [];
    return { headline: t('keeping_export_off'), lines: waiting, alert: false };
  }
  const where = `${s.target.tls ? 'TLS' : 'TCP'} ${s.target.host}:${s.target.port}`;
  const lines: string[] = [];
  const waiting = s.pending + s.waiting_in_log;
  lines.push(waiting === 0 ? t('keeping_export_all_taken') : t('keeping_export_waiting', waiting, s.capacity));
  if (s.nearly_full) lines.push(t('keeping_export_nearly_full', waiting, s.capacity));
  if (s.sent_through >= 0)
    lines.push(s.last_sent_at ? t('keeping_export_sent_through_at', s.sent_through, new Date(s.last_sent_at).toLocaleTimeString(uiLocale())) : t('keeping_export_sent_through', s.sent_through));
  if (s.problem) {
    const next = s.next_attempt_at ? Math.max(0, Math.round((Date.parse(s.next_attempt_at) - now) / 1000)) : undefined;
    // The problem is the worker's own sentence about the connection (raw, like a record's details).
    lines.push(next !== undefined ? `${s.problem} ${t('keeping_export_next_attempt', next)}` : s.problem);
    return { headline: t('keeping_export_failing', where), lines, alert: true };
  }
  return { headline: waiting === 0 ? t('keeping_export_up_to_date', where) : t('keeping_export_sending', where), lines, alert: s.nearly_full };
}

/** The form's fields → a target, or the first problem in words. */
export function targetFromForm(form: { host: string; port: string; tls: boolean }): { ok: true; target: AuditExportTarget } | { ok: false; problem: string } {
  const parsed = AuditExportTarget.safeParse({ host: form.host.trim(), port: Number(form.port), tls: form.tls });
  if (parsed.success) return { ok: true, target: parsed.data };
  const issue = parsed.error.issues[0];
  const problem = issue?.message ?? t('keeping_export_invalid');
  return { ok: false, problem: issue?.path.join('.') === 'port' ? t('keeping_export_bad_port', problem) : t('keeping_export_bad_host', problem) };
}
