import { useState } from 'preact/hooks';
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
      setStatus(r.has_key ? 'Key saved. It is kept by Steward’s service worker and will not be shown again.' : 'Key forgotten.');
      onChanged();
    } catch (e) {
      setStatus(`The key was not saved: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="field key-field">
      <label for="set-key">API key</label>
      <input
        id="set-key"
        type="password"
        autocomplete="off"
        value={key}
        placeholder={hasKey ? '(a key is stored; type to replace it)' : ''}
        aria-describedby="set-key-state"
        onInput={(e) => (setKey(e.currentTarget.value), setStatus(''))}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          if (key.trim()) void store(key.trim());
        }}
      />
      <p class="note" id="set-key-state">
        {hasKey === undefined ? 'Whether a key is stored is not known yet.' : hasKey ? 'A key is stored.' : 'No key is stored.'} Local servers (Ollama, LM Studio) usually need none.
      </p>
      <div class="actions">
        <button type="button" disabled={busy || !key.trim()} onClick={() => void store(key.trim())}>
          Save key
        </button>
        <button type="button" class="secondary" disabled={busy || !hasKey} onClick={() => void store('')}>
          Forget key
        </button>
      </div>
      <p class="note" role="status">
        {status}
      </p>
    </div>
  );
}
