import { useEffect, useState } from 'preact/hooks';
import type { AuditExportStatus } from '../../protocol/audit-export.ts';
import { auditExportStatus, setAuditExportTarget, subscribe } from '../background-client.ts';
import { auditExportWords, targetFromForm } from '../lib/audit-export-words.ts';
import { ManagedNote } from './ManagedNote.tsx';

/** Where the audit log is also sent (an organisation's syslog collector), and how that stands, kept live. */
export function AuditExportBlock() {
  const [status, setStatus] = useState<AuditExportStatus | undefined>(undefined);
  const [form, setForm] = useState({ host: '', port: '6514', tls: true });
  const [error, setError] = useState('');
  const [saved, setSaved] = useState('');
  useEffect(() => {
    let alive = true;
    const load = () =>
      auditExportStatus().then(
        (s) => alive && (setStatus(s), setError('')),
        (e: Error) => alive && setError(e.message),
      );
    void load().then(() => undefined);
    const unsubscribe = subscribe((m) => {
      if (m.type === 'panel/audit-export-changed' || m.type === 'panel/bridge-changed' || m.type === 'panel/audit-changed' || m.type === 'panel/reconnected') void load();
    });
    return () => {
      alive = false;
      unsubscribe();
    };
  }, []);
  useEffect(() => {
    if (status?.target) setForm({ host: status.target.host, port: String(status.target.port), tls: status.target.tls });
  }, [status?.target?.host, status?.target?.port, status?.target?.tls]);

  const save = async (clear: boolean) => {
    setSaved('');
    const checked = clear ? ({ ok: true, target: null } as const) : targetFromForm(form);
    if (!checked.ok) return setError(checked.problem);
    try {
      setStatus(await setAuditExportTarget(checked.target));
      setError('');
      setSaved(clear ? 'Audit export stopped.' : 'Audit export target saved.');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const words = status && auditExportWords(status, Date.now());
  // The organisation's policy sets the target: shown, not editable (the worker refuses a change too).
  const managed = status?.managed === true;
  return (
    <fieldset class="audit-export">
      <legend>Audit export (syslog)</legend>
      <p class="note">
        Every audit entry also goes, through steward-bridge, to your organisation’s syslog collector (RFC 5424 over TCP, TLS per RFC 5425): who did what to which resource and the outcome, never page
        content or secrets.
      </p>
      {managed && (
        <ManagedNote>
          {status.target
            ? `every audit entry goes to ${status.target.host}:${status.target.port}${status.target.tls ? ' over TLS' : ''}.`
            : 'the audit export target in its policy does not read, so nothing is sent until it is fixed.'}
        </ManagedNote>
      )}
      <form
        class="settings"
        onSubmit={(e) => {
          e.preventDefault();
          void save(false);
        }}
      >
        <label for="export-host">Collector host</label>
        <input id="export-host" disabled={managed} value={form.host} placeholder="logs.example.org" onInput={(e) => setForm({ ...form, host: e.currentTarget.value })} />
        <label for="export-port">Port</label>
        <input id="export-port" disabled={managed} inputMode="numeric" value={form.port} onInput={(e) => setForm({ ...form, port: e.currentTarget.value })} />
        <div>
          <input id="export-tls" type="checkbox" disabled={managed} checked={form.tls} onChange={(e) => setForm({ ...form, tls: e.currentTarget.checked })} />
          <label for="export-tls">TLS (RFC 5425)</label>
        </div>
        <div>
          <button type="submit" disabled={managed}>
            Save export target
          </button>{' '}
          {status?.target && !managed && (
            <button type="button" onClick={() => void save(true)}>
              Stop exporting
            </button>
          )}
        </div>
      </form>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <p class="note" role="status">
        {saved}
      </p>
      {words && (
        <div class="audit-export-status" aria-label="Audit export status">
          <p class={words.alert ? 'bridge-line off' : 'bridge-line ok'}>
            <strong>{words.headline}</strong>
          </p>
          {words.lines.map((line) => (
            <p class={words.alert ? 'note error-text' : 'note'} key={line}>
              {line}
            </p>
          ))}
        </div>
      )}
    </fieldset>
  );
}
