import { useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import type { ModelProvider } from '../../protocol/copilot.ts';
import { setModelKey } from '../background-client.ts';

interface Props {
  provider: ModelProvider;
  hasKey: boolean | undefined;
  /** The key as typed: Settings' one Save hands it to the service worker (and empties the field). */
  keyText: string;
  onKeyText: (text: string) => void;
  onChanged: () => void;
}

/**
 * The model's API key, write-only: it goes to the service worker's trusted storage and never
 * comes back; the panel only learns whether one is stored. A typed key is saved by the settings
 * form's Save; forgetting the stored one is done at once.
 */
export function ModelKeyField({ provider, hasKey, keyText, onKeyText, onChanged }: Props) {
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const forget = async () => {
    setBusy(true);
    try {
      await setModelKey(provider, '');
      setStatus(t('copilot_key_forgotten'));
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
        value={keyText}
        placeholder={hasKey ? t('copilot_key_placeholder') : ''}
        aria-describedby="set-key-state"
        onInput={(e) => (onKeyText(e.currentTarget.value), setStatus(''))}
      />
      <p class="note" id="set-key-state">
        {hasKey === undefined ? t('copilot_key_unknown') : hasKey ? t('copilot_key_stored') : t('copilot_key_none')} {t('copilot_key_local')}
      </p>
      <div class="actions">
        <button type="button" class="secondary" disabled={busy || !hasKey} onClick={() => void forget()}>
          {t('copilot_forget_key')}
        </button>
      </div>
      <p class="note" role="status">
        {status}
      </p>
    </div>
  );
}
