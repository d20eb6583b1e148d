import type { CopilotEnd, CopilotRun } from '../../protocol/copilot.ts';
import { endText } from '../lib/copilot-run.ts';

/** The run's final answer: done and verified (with the evidence), done but not verified, or why it stopped. */
export function CopilotEndBlock({ end, run }: { end: CopilotEnd; run: CopilotRun }) {
  const t = endText(end, run);
  return (
    <section class={`copilot-end tone-${t.tone}`} aria-labelledby="copilot-end-h">
      <h3 id="copilot-end-h">{t.title}</h3>
      <p>{t.body}</p>
      {end.kind === 'done' && end.evidence && (
        <p>
          <span class="result-label">Evidence:</span> {end.evidence}
        </p>
      )}
      {end.kind === 'stopped' && end.errors && end.errors.length > 0 && (
        <ul class="plain errors" aria-label="Errors">
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
