import { RetentionDays } from '../../protocol/audit.ts';
import type { AuditRemovalResponse } from '../../protocol/panel-channel.ts';

/** The retention field: empty keeps everything (null), else whole days from 1 to 3650. */
export function retentionFromText(text: string): { ok: true; days: number | null } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, days: null };
  const parsed = RetentionDays.safeParse(Number(trimmed));
  return parsed.success && /^\d+$/.test(trimmed) ? { ok: true, days: parsed.data } : { ok: false, problem: 'Enter a whole number of days from 1 to 3650, or leave it empty to keep everything.' };
}

const entries = (n: number) => `${n} entr${n === 1 ? 'y' : 'ies'}`;

/** What a retention run or a clear did, in a sentence. */
export function removalWords(what: 'retention' | 'clear', r: AuditRemovalResponse, days?: number | null): string {
  const head =
    what === 'clear'
      ? r.removed > 0
        ? `Activity cleared: ${entries(r.removed)} removed. The log now starts with an entry that records the clear, so Verify chain still checks it.`
        : 'Nothing to clear.'
      : days === null
        ? 'Steward now keeps all activity.'
        : `Steward keeps ${days} day${days === 1 ? '' : 's'} of activity.${r.removed > 0 ? ` ${entries(r.removed)} older than that removed (recorded in the log).` : ''}`;
  return r.kept_for_export > 0 ? `${head} ${entries(r.kept_for_export)} not yet sent to your syslog collector stay until they are.` : head;
}
