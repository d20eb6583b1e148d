import { useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import type { ModelProvider } from '../../protocol/copilot.ts';
import { setModelKey } from '../background-client.ts';

/**
 * The model's API key, write-only: it goes to the service worker's trusted storage and never
 * comes back; the panel only learns whether one is stored. Not part of the settings form's
 * Save (which writes chrome.storage.local), so Enter here saves the key alone.
 */
export function ModelKeyField({ provider, hasKey, onChanged }: { provider: ModelProvider; hasKey: boolean | undefined; onChanged: () => void }) {
  const [key, setKey] = useState('');
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const store = async (value: string) => {
    setBusy(true);
    try {
      const r = await setModelKey(provider, value);
      setKey('');
      setStatus(r.has_key ? t('copilot_key_saved') : t('copilot_key_forgotten'));
      onChanged();
    } catch (e) {
      setStatus(t('copilot_key_not_saved', (e as Error).message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="field key-field">
      <label for="set-key">{t('copilot_api_key')}</label>
      <input
        id="set-key"
        type="password"
        autocomplete="off"
        value={key}
        placeholder={hasKey ? t('copilot_key_placeholder') : ''}
        aria-describedby="set-key-state"
        onInput={(e) => (setKey(e.currentTarget.value), setStatus(''))}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          if (key.trim()) void store(key.trim());
        }}
      />
      <p class="note" id="set-key-state">
        {hasKey === undefined ? t('copilot_key_unknown') : hasKey ? t('copilot_key_stored') : t('copilot_key_none')} {t('copilot_key_local')}
      </p>
      <div class="actions">
        <button type="button" disabled={busy || !key.trim()} onClick={() => void store(key.trim())}>
          {t('copilot_save_key')}
        </button>
        <button type="button" class="secondary" disabled={busy || !hasKey} onClick={() => void store('')}>
          {t('copilot_forget_key')}
        </button>
      </div>
      <p class="note" role="status">
        {status}
      </p>
    </div>
  );
}
