import { AuditExportTarget, type AuditExportStatus } from '../../protocol/audit-export.ts';

/** The words Settings shows for the audit export. Pure. */
export function auditExportWords(s: AuditExportStatus, now: number): { headline: string; lines: string[]; alert: boolean } {
  if (!s.target) {
    const waiting = s.pending > 0 ? [`${s.pending} entries are still waiting in the outbox; they go out when a collector is set again.`] : [];
    return { headline: 'Audit export: off', lines: waiting, alert: false };
  }
  const where = `${s.target.tls ? 'TLS' : 'TCP'} ${s.target.host}:${s.target.port}`;
  const lines: string[] = [];
  const waiting = s.pending + s.waiting_in_log;
  lines.push(waiting === 0 ? 'Every entry has been taken by the collector.' : `${waiting} entries waiting to be sent (outbox holds up to ${s.capacity}).`);
  if (s.nearly_full) lines.push(`The outbox is nearly full: ${waiting} of ${s.capacity}. Nothing is dropped: what does not fit waits in the audit log and follows in order.`);
  if (s.sent_through >= 0) lines.push(`Sent through entry ${s.sent_through}${s.last_sent_at ? `, last at ${new Date(s.last_sent_at).toLocaleTimeString()}` : ''}.`);
  if (s.problem) {
    const next = s.next_attempt_at ? Math.max(0, Math.round((Date.parse(s.next_attempt_at) - now) / 1000)) : undefined;
    lines.push(`${s.problem}${next !== undefined ? ` Next attempt in ${next} s.` : ''}`);
    return { headline: `Audit export to ${where}: failing`, lines, alert: true };
  }
  return { headline: `Audit export to ${where}: ${waiting === 0 ? 'up to date' : 'sending'}`, lines, alert: s.nearly_full };
}

/** The form's fields → a target, or the first problem in words. */
export function targetFromForm(form: { host: string; port: string; tls: boolean }): { ok: true; target: AuditExportTarget } | { ok: false; problem: string } {
  const parsed = AuditExportTarget.safeParse({ host: form.host.trim(), port: Number(form.port), tls: form.tls });
  if (parsed.success) return { ok: true, target: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, problem: `${issue?.path.join('.') === 'port' ? 'Port' : 'Host'} ${issue?.message ?? 'is invalid'}` };
}
