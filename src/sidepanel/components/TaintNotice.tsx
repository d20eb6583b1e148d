import { useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import { clearTaint } from '../background-client.ts';
import { clockTime } from '../lib/time.ts';
import { said } from '../lib/phrases.ts';
import type { Phrase } from '../../protocol/phrase.ts';
import { now } from '../now.ts';

/**
 * Page content has reached this agent, so Steward asks the person for each of its consequential
 * actions. Only the person clears that (after starting the agent afresh), with a confirm step;
 * the worker writes an audit entry.
 */
export function TaintNotice({ agentId, taint, onCleared }: { agentId: string; taint: { at: string; source: string; source_said?: Phrase }; onCleared: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const clear = async () => {
    setBusy(true);
    setError('');
    try {
      await clearTaint(agentId);
      setConfirming(false);
      onCleared();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="taint" aria-label={t('tokens_taint_label', agentId)}>
      <p>{t('tokens_taint_since', clockTime(taint.at, now.value), said(taint.source_said, taint.source))}</p>
      {confirming ? (
        <div class="confirm" role="group" aria-label={t('tokens_taint_confirm_label', agentId)}>
          <p>{t('tokens_taint_confirm')}</p>
          <button type="button" class="danger" disabled={busy} onClick={() => void clear()}>
            {t('tokens_taint_yes_clear')}
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={() => setConfirming(false)}>
            {t('tokens_keep')}
          </button>
        </div>
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          {t('tokens_taint_clear')}
        </button>
      )}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
