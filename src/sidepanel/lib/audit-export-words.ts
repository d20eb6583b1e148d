import { t, uiLocale } from '../../base/i18n.ts';
import { AuditExportTarget, type AuditExportStatus } from '../../protocol/audit-export.ts';
import { said } from './phrases.ts';

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
    // The connection's problem in the person's language (its phrase), else the worker's own sentence.
    const problem = said(s.problem_said, s.problem);
    lines.push(next !== undefined ? `${problem} ${t('keeping_export_next_attempt', next)}` : problem);
    return { headline: t('keeping_export_failing', where), lines, alert: true };
  }
  return { headline: waiting === 0 ? t('keeping_export_up_to_date', where) : t('keeping_export_sending', where), lines, alert: s.nearly_full };
}

/** The export target as the Settings form holds it: text fields, the port not yet a number. */
export interface ExportForm {
  host: string;
  port: string;
  tls: boolean;
}

/** The form for a stored target (none: an empty host, the usual TLS port). */
export const exportFormOf = (target: AuditExportTarget | null | undefined): ExportForm =>
  target ? { host: target.host, port: String(target.port), tls: target.tls } : { host: '', port: '6514', tls: true };

/** The form's fields → a target (an empty host: none, nothing is sent), or each field's problem in words. */
export function targetFromForm(form: ExportForm): { ok: true; target: AuditExportTarget | null } | { ok: false; errors: { host?: string; port?: string } } {
  const host = form.host.trim();
  if (host === '') return { ok: true, target: null };
  const parsed = AuditExportTarget.safeParse({ host, port: Number(form.port.trim() === '' ? NaN : form.port), tls: form.tls });
  if (parsed.success) return { ok: true, target: parsed.data };
  const wrong = new Set(parsed.error.issues.map((issue) => issue.path[0]));
  return {
    ok: false,
    errors: { ...(wrong.has('host') ? { host: t('keeping_export_bad_host') } : {}), ...(wrong.has('port') ? { port: t('keeping_export_bad_port') } : {}) },
  };
}
