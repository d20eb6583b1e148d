import { t } from '../../base/i18n.ts';
import { useState } from 'preact/hooks';
import type { CopilotStep } from '../../protocol/copilot.ts';
import { answerCopilot } from '../background-client.ts';
import { rememberRun } from '../copilot-store.ts';
import { submitOnEnter } from '../lib/submit-on-enter.ts';

/**
 * The model's question to the person, with the box to answer it. The question is the model's
 * words (it may have read page text), so it is marked as such; the answer goes to the run as the
 * step's result, and the run continues. Enter sends, Shift+Enter adds a line.
 */
export function CopilotQuestion({ runId, step }: { runId: string; step: CopilotStep }) {
  const [answer, setAnswer] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const ids = { question: `step-${step.n}-question`, box: `step-${step.n}-answer` };

  const send = async (event?: Event) => {
    event?.preventDefault();
    const text = answer.trim();
    if (!text || busy) return;
    setBusy(true);
    setError('');
    try {
      rememberRun((await answerCopilot(runId, text)).run);
      setAnswer('');
    } catch (e) {
      setError(t('question_could_not_send', (e as Error).message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="copilot-question" aria-label={t('question_label')} onSubmit={(e) => void send(e)}>
      <figure class="claim">
        <figcaption>{t('question_asks')}</figcaption>
        <blockquote id={ids.question}>{step.question}</blockquote>
      </figure>
      <label for={ids.box}>{t('question_your_answer')}</label>
      <textarea id={ids.box} rows={2} value={answer} disabled={busy} aria-describedby={ids.question} onInput={(e) => setAnswer(e.currentTarget.value)} onKeyDown={submitOnEnter} />
      <p class="note">{t('question_keys')}</p>
      <button type="submit" disabled={busy || !answer.trim()}>
        {t('question_send')}
      </button>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
