import { useEffect, useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import type { AuditExportStatus } from '../../protocol/audit-export.ts';
import { auditExportStatus, setAuditExportTarget, subscribe } from '../background-client.ts';
import { auditExportWords, targetFromForm } from '../lib/audit-export-words.ts';
import { ManagedNote } from './ManagedNote.tsx';

/** An example collector address: a host name, the same in every language. */
const EXAMPLE_HOST = 'logs.example.org';

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
      setSaved(clear ? t('keeping_export_stopped') : t('keeping_export_saved'));
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const words = status && auditExportWords(status, Date.now());
  // The organisation's policy sets the target: shown, not editable (the worker refuses a change too).
  const managed = status?.managed === true;
  return (
    <fieldset class="audit-export">
      <legend>{t('keeping_export_legend')}</legend>
      <p class="note">{t('keeping_export_intro')}</p>
      {managed && (
        <ManagedNote>
          {status.target
            ? status.target.tls
              ? t('keeping_export_managed_tls', `${status.target.host}:${status.target.port}`)
              : t('keeping_export_managed', `${status.target.host}:${status.target.port}`)
            : t('keeping_export_managed_invalid')}
        </ManagedNote>
      )}
      <form
        class="settings"
        onSubmit={(e) => {
          e.preventDefault();
          void save(false);
        }}
      >
        <label for="export-host">{t('keeping_export_host')}</label>
        <input id="export-host" disabled={managed} value={form.host} placeholder={EXAMPLE_HOST} onInput={(e) => setForm({ ...form, host: e.currentTarget.value })} />
        <label for="export-port">{t('keeping_export_port')}</label>
        <input id="export-port" disabled={managed} inputMode="numeric" value={form.port} onInput={(e) => setForm({ ...form, port: e.currentTarget.value })} />
        <div>
          <input id="export-tls" type="checkbox" disabled={managed} checked={form.tls} onChange={(e) => setForm({ ...form, tls: e.currentTarget.checked })} />
          <label for="export-tls">{t('keeping_export_tls')}</label>
        </div>
        <div>
          <button type="submit" disabled={managed}>
            {t('keeping_export_save')}
          </button>{' '}
          {status?.target && !managed && (
            <button type="button" onClick={() => void save(true)}>
              {t('keeping_export_stop')}
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
        <div class="audit-export-status" aria-label={t('keeping_export_status_label')}>
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
