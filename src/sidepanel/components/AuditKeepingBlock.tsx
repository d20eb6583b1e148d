import { useEffect, useState } from 'preact/hooks';
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
      return 'Activity downloaded as JSON Lines with its chain (each entry with its seq, hash and previous hash). Check it with “Verify a downloaded log…” in Activity, or steward-bridge audit verify.';
    });

  const clear = () => {
    setConfirming(false);
    void run(async () => removalWords('clear', await clearAuditLog()));
  };

  return (
    <fieldset class="audit-keeping">
      <legend>Activity log</legend>
      <form class="settings" onSubmit={saveRetention} noValidate>
        <div class="field">
          <label for="audit-retention">Keep activity for (days; empty keeps everything)</label>
          <input id="audit-retention" inputMode="numeric" value={daysText} onInput={(e) => (setDaysText(e.currentTarget.value), setError(''))} aria-invalid={error ? true : undefined} />
        </div>
        <button type="submit" disabled={busy}>
          Save retention
        </button>
      </form>
      <p class="note">Older entries are removed every hour. Each removal is itself an entry in the log, so “Verify chain” still checks what remains.</p>
      <div class="toolbar">
        <button type="button" class="secondary" onClick={download} disabled={busy}>
          Download activity (JSONL)
        </button>
        {!confirming && (
          <button type="button" class="danger" onClick={() => setConfirming(true)} disabled={busy}>
            Clear activity…
          </button>
        )}
      </div>
      {confirming && (
        <div role="group" aria-label="Confirm clearing the activity log">
          <p>Remove every entry of the activity log? Download it first if you may need it. This cannot be undone.</p>
          <button type="button" class="danger" onClick={clear}>
            Clear activity
          </button>{' '}
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            Cancel
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
