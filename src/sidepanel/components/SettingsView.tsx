import { t } from '../../base/i18n.ts';
import { useEffect, useState } from 'preact/hooks';
import { MAX_WINDOW_MINUTES, modelServerOrigin, type Settings } from '../../protocol/settings.ts';
import { settings } from '../settings.ts';
import { saveSettingsForm } from '../save-settings-form.ts';
import { useAuditExportStatus, useAuditRetention } from '../use-audit-keeping.ts';
import { exportFormOf, type ExportForm } from '../lib/audit-export-words.ts';
import { checkSettingsForm, copilotNumbers, saveWords } from '../lib/settings-form.ts';
import { BridgeStatusBlock } from './BridgeStatusBlock.tsx';
import { AuditExportBlock } from './AuditExportBlock.tsx';
import { AuditKeepingBlock } from './AuditKeepingBlock.tsx';
import { MemoryBlock } from './MemoryBlock.tsx';
import { PrivacyStatement } from './PrivacyStatement.tsx';
import { ContractSitesList } from './ContractSitesList.tsx';
import { CopilotSettings } from './CopilotSettings.tsx';
import { LifetimeOptions } from './LifetimeOptions.tsx';
import { SitePermissions } from './SitePermissions.tsx';
import { browser } from '../browser.ts';
import { askChromeFor } from '../site-permission.ts';
import { orgPolicy } from '../policy-store.ts';
import { ManagedNote } from './ManagedNote.tsx';

/** Whether a page has reported native WebMCP in this browser (the service worker records it). */
function useNativeWebMcpSeen(): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const read = () =>
      void browser.storage.local.get('steward.webmcp').then((items) => {
        const v = items['steward.webmcp'] as { native?: unknown; browser?: unknown } | undefined;
        setSeen(v?.native === true && v.browser === navigator.userAgent.slice(0, 300));
      });
    read();
    const changed = (changes: Record<string, unknown>, area: string) => area === 'local' && 'steward.webmcp' in changes && read();
    browser.storage.onChanged.addListener(changed);
    return () => browser.storage.onChanged.removeListener(changed);
  }, []);
  return seen;
}

/**
 * Preferences kept in chrome.storage.local, the co-pilot's model and key, and what Steward keeps of
 * its activity log, all saved by one Save once every field checks out; then per-site access and
 * what acts at once (memory, forgetting a site).
 */
export function SettingsView() {
  const [draft, setDraft] = useState<Settings>(settings.value);
  const [windowText, setWindowText] = useState(String(settings.value.approval_window_minutes));
  const [numbers, setNumbers] = useState(copilotNumbers(settings.value.copilot));
  const [keyText, setKeyText] = useState('');
  const [keySaves, setKeySaves] = useState(0);
  const retention = useAuditRetention();
  const exporting = useAuditExportStatus();
  const [retentionText, setRetentionText] = useState('');
  const [exportForm, setExportForm] = useState<ExportForm>(exportFormOf(undefined));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  const [saving, setSaving] = useState(false);
  // Each part follows outside changes (another panel, the worker) until the person edits it.
  const [dirty, setDirty] = useState(false);
  const [retentionEdited, setRetentionEdited] = useState(false);
  const [exportEdited, setExportEdited] = useState(false);
  const nativeSeen = useNativeWebMcpSeen();
  const maxLifetime = orgPolicy.value.policy.maxTokenLifetimeMinutes;
  const exportTarget = exporting.status?.target;
  useEffect(() => {
    if (!dirty) {
      setDraft(settings.value);
      setWindowText(String(settings.value.approval_window_minutes));
      setNumbers(copilotNumbers(settings.value.copilot));
    }
  }, [settings.value]);
  useEffect(() => {
    if (!retentionEdited && retention.days !== undefined) setRetentionText(retention.days === null ? '' : String(retention.days));
  }, [retention.days]);
  useEffect(() => {
    if (!exportEdited && exporting.status) setExportForm(exportFormOf(exportTarget));
  }, [exporting.status === undefined, exportTarget?.host, exportTarget?.port, exportTarget?.tls]);

  /** A preference's edit: the preferences stop following outside changes, and the last save's words go. */
  const touched = () => (setDirty(true), setStatus(''));
  const edit = (next: Settings) => (setDraft(next), touched());

  /** Shows its own failure in the form's status: the submit handler need not wait for it. */
  const submit = async (event: Event) => {
    event.preventDefault();
    const checked = checkSettingsForm(
      { settings: draft, windowText, numbers, retentionText, exportForm, keyText },
      { retentionDays: retention.days, exportTarget: exporting.status?.target, exportManaged: exporting.status?.managed === true },
    );
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return setStatus(t('settings_not_saved_fix'));
    // The model's server is an origin like any other: Chrome must give Steward access to it. Asked
    // in this click, before anything is awaited (no prompt once the person has granted it).
    const server = modelServerOrigin(checked.settings.copilot);
    const asked = server ? askChromeFor(server).catch(() => false) : Promise.resolve(true);
    setSaving(true);
    const saved = await saveSettingsForm(checked, { retentionSaved: retention.saved, exportSaved: exporting.saved }).finally(() => setSaving(false));
    if (saved.key?.ok) {
      setKeyText('');
      setKeySaves((n) => n + 1);
    }
    setDirty(false);
    setRetentionEdited(false);
    setExportEdited(false);
    const report = (access: 'not_needed' | 'waiting' | 'granted' | 'refused') =>
      saveWords({ ...saved, settings: saved.settings.ok ? { ok: true, value: { access, ...(server ? { server } : {}) } } : saved.settings });
    if (!server || !saved.settings.ok) return setStatus(report('not_needed'));
    // Shown at once: Chrome's prompt (if any) may stay up until the person answers it.
    setStatus(report('waiting'));
    setStatus(report((await asked) ? 'granted' : 'refused'));
  };

  const err = (path: string, id: string) =>
    errors[path] ? (
      <p class="error-text" id={`${id}-error`}>
        {errors[path]}
      </p>
    ) : null;
  const described = (path: string, id: string) => (errors[path] ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {});

  return (
    <>
      <h2>{t('settings_heading')}</h2>
      <form class="settings" onSubmit={(e) => void submit(e)} noValidate>
        {/* What people change most comes first: the co-pilot's model. */}
        <CopilotSettings
          copilot={draft.copilot}
          numbers={numbers}
          onCopilot={(copilot) => edit({ ...draft, copilot })}
          onNumber={(key, text) => (setNumbers({ ...numbers, [key]: text }), touched())}
          err={err}
          described={described}
          policy={orgPolicy.value.policy}
          keyText={keyText}
          onKeyText={(text) => (setKeyText(text), touched())}
          keySaves={keySaves}
        />
        <fieldset>
          <legend>{t('settings_page_tools')}</legend>
          <div class="field check">
            <input id="set-polyfill" type="checkbox" checked={draft.polyfill_enabled} onChange={(e) => edit({ ...draft, polyfill_enabled: e.currentTarget.checked })} />
            <label for="set-polyfill">{t('settings_polyfill')}</label>
          </div>
          <p class="note">{t('settings_polyfill_note')}</p>
          <div class="field check">
            <input id="set-debugging-tools" type="checkbox" checked={draft.show_debugging_tools} onChange={(e) => edit({ ...draft, show_debugging_tools: e.currentTarget.checked })} />
            <label for="set-debugging-tools">{t('settings_debugging')}</label>
          </div>
          {nativeSeen && <p class="note">{t('settings_native_seen')}</p>}
        </fieldset>
        <fieldset>
          <legend>{t('settings_tokens')}</legend>
          <div class="field">
            <label for="set-lifetime">{t('settings_lifetime')}</label>
            <select id="set-lifetime" value={String(draft.token_lifetime_minutes)} onChange={(e) => edit({ ...draft, token_lifetime_minutes: Number(e.currentTarget.value) })}>
              <LifetimeOptions minutes={draft.token_lifetime_minutes} {...(maxLifetime !== undefined ? { max: maxLifetime } : {})} />
            </select>
            {maxLifetime !== undefined && <ManagedNote>{t('settings_lifetime_managed', maxLifetime)}</ManagedNote>}
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('settings_approvals')}</legend>
          <div class="field">
            <label for="set-window">{t('settings_window', MAX_WINDOW_MINUTES)}</label>
            <input
              id="set-window"
              type="number"
              min={1}
              max={MAX_WINDOW_MINUTES}
              value={windowText}
              onInput={(e) => (setWindowText(e.currentTarget.value), touched())}
              {...described('approval_window_minutes', 'set-window')}
            />
            {err('approval_window_minutes', 'set-window')}
          </div>
          <p class="note">{t('settings_window_note')}</p>
        </fieldset>
        <AuditKeepingBlock
          daysText={retentionText}
          onDaysText={(text) => (setRetentionText(text), setRetentionEdited(true), setStatus(''))}
          known={retention.days !== undefined}
          loadError={retention.error}
          err={err}
          described={described}
        />
        <AuditExportBlock
          status={exporting.status}
          loadError={exporting.error}
          form={exportForm}
          onForm={(form) => (setExportForm(form), setExportEdited(true), setStatus(''))}
          err={err}
          described={described}
        />
        <button type="submit" disabled={saving}>
          {t('settings_save')}
        </button>
        <p role="status" class="note">
          {status}
        </p>
      </form>
      <SitePermissions />
      <ContractSitesList />
      <BridgeStatusBlock />
      <MemoryBlock />
      <PrivacyStatement />
    </>
  );
}
