import { useEffect, useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import { auditRetention, clearAuditLog, exportAudit, setAuditRetention } from '../background-client.ts';
import { auditFilename, downloadText } from '../download.ts';
import { removalWords, retentionFromText } from '../lib/audit-keeping.ts';

/**
 * What Steward keeps of its activity log: how long (older entries go, the removal recorded in the
 * chain so it still verifies), a download of it, and clearing it.
 */
export function AuditKeepingBlock() {
  const [daysText, setDaysText] = useState('');
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let alive = true;
    auditRetention().then(
      ({ days }) => alive && setDaysText(days === null ? '' : String(days)),
      (e: Error) => alive && setError(e.message),
    );
    return () => {
      alive = false;
    };
  }, []);

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

  const saveRetention = (event: Event) => {
    event.preventDefault();
    const parsed = retentionFromText(daysText);
    if (!parsed.ok) return setError(parsed.problem);
    void run(async () => removalWords('retention', await setAuditRetention(parsed.days), parsed.days));
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
      <form class="settings" onSubmit={saveRetention} noValidate>
        <div class="field">
          <label for="audit-retention">{t('keeping_retention_label')}</label>
          <input id="audit-retention" inputMode="numeric" value={daysText} onInput={(e) => (setDaysText(e.currentTarget.value), setError(''))} aria-invalid={error ? true : undefined} />
        </div>
        <button type="submit" disabled={busy}>
          {t('keeping_retention_save')}
        </button>
      </form>
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
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <p class="note" role="status">
        {status}
      </p>
    </fieldset>
  );
}
