import { SaidRecord } from './SaidRecord.tsx';
import { t } from '../../base/i18n.ts';
import type { CopilotEnd, CopilotRun } from '../../protocol/copilot.ts';
import { endText } from '../lib/copilot-run.ts';
import { saidWithRecord } from '../lib/phrases.ts';

/** The run's final answer: done and verified (with the evidence), done but not verified, or why it stopped. */
export function CopilotEndBlock({ end, run }: { end: CopilotEnd; run: CopilotRun }) {
  const words = endText(end, run);
  return (
    <section class={`copilot-end tone-${words.tone}`} aria-labelledby="copilot-end-h">
      <h3 id="copilot-end-h">{words.title}</h3>
      <p>{words.body}</p>
      <SaidRecord record={words.record} />
      {end.kind === 'done' && end.evidence && (
        <p>
          <span class="result-label">{t('copilot_evidence_label')}</span> {end.evidence}
        </p>
      )}
      {end.kind === 'stopped' && end.errors && end.errors.length > 0 && (
        <ul class="plain errors" aria-label={t('copilot_errors_label')}>
          {end.errors.map((e, i) => {
            // Each failure in the person's words; what the worker wrote (the model was told) one click away where it says more.
            const { words, record } = saidWithRecord(end.errors_said?.[i], e);
            return (
              <li key={i} class="error-text">
                {words}
                <SaidRecord record={record} />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
