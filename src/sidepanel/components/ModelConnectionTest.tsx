import { useState } from 'preact/hooks';
import { checkModel } from '../background-client.ts';

/**
 * "Test connection": Steward calls the model's endpoint (its model list; no tokens spent) with
 * the saved settings and key, and says in one sentence whether it answered.
 */
export function ModelConnectionTest() {
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const test = async () => {
    setBusy(true);
    setResult({ ok: true, text: 'Testing the connection…' });
    try {
      const s = await checkModel();
      setResult(s.ready ? { ok: true, text: `Connected: ${s.model_label} answered.` } : { ok: false, text: `Connection failed: ${s.detail ?? 'the model is not set up yet.'}` });
    } catch (e) {
      setResult({ ok: false, text: `Connection failed: ${(e as Error).message}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="field">
      <button type="button" class="secondary" disabled={busy} onClick={() => void test()} aria-describedby="model-test-note">
        Test connection
      </button>
      <p class="note" id="model-test-note">
        Uses the saved settings and key: save first.
      </p>
      <p class={result && !result.ok ? 'error-text' : 'note'} role="status" aria-label="Connection test">
        {result?.text ?? ''}
      </p>
    </div>
  );
}
