import { t } from '../../base/i18n.ts';

/** The worker's own English record behind a sentence the panel said in the person's words, one click away; nothing when there is none. */
export function SaidRecord({ record }: { record: string | undefined }) {
  if (record === undefined) return null;
  return (
    <details class="said-raw">
      <summary>{t('said_details')}</summary>
      <p class="note code">{record}</p>
    </details>
  );
}
