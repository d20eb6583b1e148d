import { t } from '../../base/i18n.ts';
import type { CopilotEnd, CopilotRun } from '../../protocol/copilot.ts';
import { endText } from '../lib/copilot-run.ts';

/** The run's final answer: done and verified (with the evidence), done but not verified, or why it stopped. */
export function CopilotEndBlock({ end, run }: { end: CopilotEnd; run: CopilotRun }) {
  const words = endText(end, run);
  return (
    <section class={`copilot-end tone-${words.tone}`} aria-labelledby="copilot-end-h">
      <h3 id="copilot-end-h">{words.title}</h3>
      <p>{words.body}</p>
      {end.kind === 'done' && end.evidence && (
        <p>
          <span class="result-label">{t('copilot_evidence_label')}</span> {end.evidence}
        </p>
      )}
      {end.kind === 'stopped' && end.errors && end.errors.length > 0 && (
        <ul class="plain errors" aria-label={t('copilot_errors_label')}>
          {end.errors.map((e, i) => (
            <li key={i} class="error-text">
              {e}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
