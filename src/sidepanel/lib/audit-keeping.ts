import { pluralOf, t } from '../../base/i18n.ts';
import { RetentionDays } from '../../protocol/audit.ts';
import type { AuditRemovalResponse } from '../../protocol/panel-channel.ts';

/** The retention field: empty keeps everything (null), else whole days from 1 to 3650. */
export function retentionFromText(text: string): { ok: true; days: number | null } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, days: null };
  const parsed = RetentionDays.safeParse(Number(trimmed));
  return parsed.success && /^\d+$/.test(trimmed) ? { ok: true, days: parsed.data } : { ok: false, problem: t('keeping_retention_invalid') };
}

const entries = (n: number) => (pluralOf(n) === 'one' ? t('keeping_entries_one', n) : t('keeping_entries_other', n));

/** What a retention run or a clear did, in a sentence. */
export function removalWords(what: 'retention' | 'clear', r: AuditRemovalResponse, days?: number | null): string {
  const head =
    what === 'clear'
      ? r.removed > 0
        ? t('keeping_cleared', entries(r.removed))
        : t('keeping_nothing_to_clear')
      : days === null || days === undefined
        ? t('keeping_keeps_all')
        : [pluralOf(days) === 'one' ? t('keeping_keeps_days_one', days) : t('keeping_keeps_days_other', days), ...(r.removed > 0 ? [t('keeping_older_removed', entries(r.removed))] : [])].join(' ');
  return r.kept_for_export > 0 ? `${head} ${t('keeping_kept_for_export', entries(r.kept_for_export))}` : head;
}
