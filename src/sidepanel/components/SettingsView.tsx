import { t } from '../../base/i18n.ts';
import { useEffect, useState } from 'preact/hooks';
import { MAX_WINDOW_MINUTES, modelServerOrigin, settingsErrors, type Settings } from '../../protocol/settings.ts';
import { saveSettings, settings } from '../settings.ts';
import { BridgeStatusBlock } from './BridgeStatusBlock.tsx';
import { AuditExportBlock } from './AuditExportBlock.tsx';
import { AuditKeepingBlock } from './AuditKeepingBlock.tsx';
import { MemoryBlock } from './MemoryBlock.tsx';
import { PrivacyStatement } from './PrivacyStatement.tsx';
import { ContractSitesList } from './ContractSitesList.tsx';
import { CopilotSettings, copilotNumbers } from './CopilotSettings.tsx';
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

/** Preferences kept in chrome.storage.local (validated on save), the co-pilot's model, and per-site access. */
export function SettingsView() {
  const [draft, setDraft] = useState<Settings>(settings.value);
  const [windowText, setWindowText] = useState(String(settings.value.approval_window_minutes));
  const [numbers, setNumbers] = useState(copilotNumbers(settings.value.copilot));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  // Follow outside changes (another panel) until the person starts editing.
  const [dirty, setDirty] = useState(false);
  const nativeSeen = useNativeWebMcpSeen();
  const maxLifetime = orgPolicy.value.policy.maxTokenLifetimeMinutes;
  useEffect(() => {
    if (!dirty) {
      setDraft(settings.value);
      setWindowText(String(settings.value.approval_window_minutes));
      setNumbers(copilotNumbers(settings.value.copilot));
    }
  }, [settings.value]);

  const edit = (next: Settings) => {
    setDraft(next);
    setDirty(true);
    setStatus('');
  };

  /** Shows its own failure in the form's status: the submit handler need not wait for it. */
  const submit = async (event: Event) => {
    event.preventDefault();
    const copilot = { ...draft.copilot, max_steps: Number(numbers.max_steps), time_budget_minutes: Number(numbers.time_budget_minutes), token_budget: Number(numbers.token_budget) };
    const candidate = { ...draft, approval_window_minutes: Number(windowText), copilot };
    const found = settingsErrors(candidate);
    setErrors(found);
    if (Object.keys(found).length > 0) return setStatus(t('settings_not_saved_fix'));
    // The model's server is an origin like any other: Chrome must give Steward access to it. Asked
    // in this click, before anything is awaited (no prompt once the person has granted it).
    const server = modelServerOrigin(candidate.copilot);
    const asked = server ? askChromeFor(server).catch(() => false) : Promise.resolve(true);
    try {
      await saveSettings(candidate);
      setDirty(false);
      if (!server) return setStatus(t('settings_saved'));
      // Shown at once: Chrome's prompt (if any) may stay up until the person answers it.
      setStatus(t('settings_saved_waiting', server));
      setStatus((await asked) ? t('settings_saved') : t('settings_saved_refused', server));
    } catch (e) {
      setStatus(t('settings_not_saved', (e as Error).message));
    }
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
          onNumber={(key, text) => (setNumbers({ ...numbers, [key]: text }), setDirty(true), setStatus(''))}
          err={err}
          described={described}
          policy={orgPolicy.value.policy}
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
              onInput={(e) => (setWindowText(e.currentTarget.value), setDirty(true), setStatus(''))}
              {...described('approval_window_minutes', 'set-window')}
            />
            {err('approval_window_minutes', 'set-window')}
          </div>
          <p class="note">{t('settings_window_note')}</p>
        </fieldset>
        <button type="submit">{t('settings_save')}</button>
        <p role="status" class="note">
          {status}
        </p>
      </form>
      <SitePermissions />
      <ContractSitesList />
      <BridgeStatusBlock />
      <AuditKeepingBlock />
      <MemoryBlock />
      <AuditExportBlock />
      <PrivacyStatement />
    </>
  );
}
