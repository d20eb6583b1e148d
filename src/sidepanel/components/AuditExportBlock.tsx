import type { ComponentChildren } from 'preact';
import { t } from '../../base/i18n.ts';
import type { AuditExportStatus } from '../../protocol/audit-export.ts';
import { auditExportWords, type ExportForm } from '../lib/audit-export-words.ts';
import { EXPORT_HOST_FIELD, EXPORT_PORT_FIELD } from '../lib/settings-form.ts';
import { ManagedNote } from './ManagedNote.tsx';

/** An example collector address: a host name, the same in every language. */
const EXAMPLE_HOST = 'logs.example.org';

interface Props {
  /** How the export stands (undefined until the worker answered). */
  status: AuditExportStatus | undefined;
  loadError: string;
  /** The target as typed; Settings' one Save stores it with the rest (an empty host: nothing is sent). */
  form: ExportForm;
  onForm: (form: ExportForm) => void;
  err: (path: string, id: string) => ComponentChildren;
  described: (path: string, id: string) => Record<string, unknown>;
}

/** Where the audit log is also sent (an organisation's syslog collector), fields of the settings form, and how that stands, kept live. */
export function AuditExportBlock({ status, loadError, form, onForm, err, described }: Props) {
  const words = status && auditExportWords(status, Date.now());
  // The organisation's policy sets the target: shown, not editable (the worker refuses a change too).
  const managed = status?.managed === true;
  const locked = managed || status === undefined;
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
      <div class="field">
        <label for="export-host">{t('keeping_export_host')}</label>
        <input
          id="export-host"
          disabled={locked}
          value={form.host}
          placeholder={EXAMPLE_HOST}
          onInput={(e) => onForm({ ...form, host: e.currentTarget.value })}
          {...described(EXPORT_HOST_FIELD, 'export-host')}
        />
        {err(EXPORT_HOST_FIELD, 'export-host')}
      </div>
      <div class="field">
        <label for="export-port">{t('keeping_export_port')}</label>
        <input
          id="export-port"
          disabled={locked}
          inputMode="numeric"
          value={form.port}
          onInput={(e) => onForm({ ...form, port: e.currentTarget.value })}
          {...described(EXPORT_PORT_FIELD, 'export-port')}
        />
        {err(EXPORT_PORT_FIELD, 'export-port')}
      </div>
      <div class="field check">
        <input id="export-tls" type="checkbox" disabled={locked} checked={form.tls} onChange={(e) => onForm({ ...form, tls: e.currentTarget.checked })} />
        <label for="export-tls">{t('keeping_export_tls')}</label>
      </div>
      {!managed && <p class="note">{t('keeping_export_empty_host')}</p>}
      {loadError && (
        <p class="error-text" role="alert">
          {loadError}
        </p>
      )}
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
