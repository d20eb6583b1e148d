import { t } from '../../base/i18n.ts';
import { explainConflict } from '../lib/conflicts.ts';

/** Each conflict as a sentence a person understands, with its code for reference. */
export function ConflictList({ conflicts, label }: { conflicts: readonly string[]; label: string }) {
  if (conflicts.length === 0) return <p class="note">{t('conflicts_none')}</p>;
  return (
    <ul class="conflicts" aria-label={label}>
      {conflicts.map((code) => (
        <li key={code}>
          {explainConflict(code)} <code class="code">{code}</code>
        </li>
      ))}
    </ul>
  );
}
