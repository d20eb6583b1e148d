import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import { clearAuditLog, exportAudit } from '../background-client.ts';
import { auditFilename, downloadText } from '../download.ts';
import { removalWords } from '../lib/audit-keeping.ts';
import { RETENTION_FIELD } from '../lib/settings-form.ts';

interface Props {
  /** The retention field as typed; Settings' one Save stores it with the rest. */
  daysText: string;
  onDaysText: (text: string) => void;
  /** The stored period is not read yet (or could not be): the field waits. */
  known: boolean;
  loadError: string;
  /** The settings form's own error line and aria wiring, by field path. */
  err: (path: string, id: string) => ComponentChildren;
  described: (path: string, id: string) => Record<string, unknown>;
}

/**
 * What Steward keeps of its activity log: how long (a field of the settings form: older entries
 * go, the removal recorded in the chain so it still verifies), and, at once, a download of it and
 * clearing it.
 */
export function AuditKeepingBlock({ daysText, onDaysText, known, loadError, err, described }: Props) {
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setStatus('');
    setError('');
    try {
      setStatus(await work());
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const download = () =>
    void run(async () => {
      const { jsonl } = await exportAudit();
      downloadText(jsonl, auditFilename(new Date()), 'application/jsonl');
      return t('keeping_downloaded');
    });

  const clear = () => {
    setConfirming(false);
    void run(async () => removalWords('clear', await clearAuditLog()));
  };

  return (
    <fieldset class="audit-keeping">
      <legend>{t('keeping_log_legend')}</legend>
      <div class="field">
        <label for="audit-retention">{t('keeping_retention_label')}</label>
        <input id="audit-retention" inputMode="numeric" value={daysText} disabled={!known} onInput={(e) => onDaysText(e.currentTarget.value)} {...described(RETENTION_FIELD, 'audit-retention')} />
        {err(RETENTION_FIELD, 'audit-retention')}
      </div>
      <p class="note">{t('keeping_retention_note')}</p>
      <div class="toolbar">
        <button type="button" class="secondary" onClick={download} disabled={busy}>
          {t('keeping_download')}
        </button>
        {!confirming && (
          <button type="button" class="danger" onClick={() => setConfirming(true)} disabled={busy}>
            {t('keeping_clear_ask')}
          </button>
        )}
      </div>
      {confirming && (
        <div role="group" aria-label={t('keeping_clear_confirm_label')}>
          <p>{t('keeping_clear_question')}</p>
          <button type="button" class="danger" onClick={clear}>
            {t('keeping_clear')}
          </button>{' '}
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            {t('keeping_cancel')}
          </button>
        </div>
      )}
      {(error || loadError) && (
        <p class="error-text" role="alert">
          {error || t('keeping_retention_load_failed', loadError)}
        </p>
      )}
      <p class="note" role="status">
        {status}
      </p>
    </fieldset>
  );
}
