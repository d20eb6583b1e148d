import { useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import { checkModel } from '../background-client.ts';
import { said } from '../lib/phrases.ts';

/**
 * "Test connection": Steward calls the model's endpoint (its model list; no tokens spent) with
 * the saved settings and key, and says in one sentence whether it answered.
 */
export function ModelConnectionTest() {
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const test = async () => {
    setBusy(true);
    setResult({ ok: true, text: t('copilot_testing') });
    try {
      const s = await checkModel();
      setResult(
        s.ready
          ? { ok: true, text: t('copilot_test_connected', said(s.model_label_said, s.model_label)) }
          : { ok: false, text: t('copilot_test_failed', s.detail !== undefined ? said(s.detail_said, s.detail) : t('copilot_test_not_set_up')) },
      );
    } catch (e) {
      setResult({ ok: false, text: t('copilot_test_failed', (e as Error).message) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="field">
      <button type="button" class="secondary" disabled={busy} onClick={() => void test()} aria-describedby="model-test-note">
        {t('copilot_test_connection')}
      </button>
      <p class="note" id="model-test-note">
        {t('copilot_test_note')}
      </p>
      <p class={result && !result.ok ? 'error-text' : 'note'} role="status" aria-label={t('copilot_test_label')}>
        {result?.text ?? ''}
      </p>
    </div>
  );
}
