import { t } from '../../base/i18n.ts';
import type { CopilotStep } from '../../protocol/copilot.ts';
import { forgetApproval, pendingApprovals, reloadApprovals } from '../approvals-store.ts';
import { stepStatusLabel, viaLabel } from '../lib/copilot-run.ts';
import { ApprovalCard } from './ApprovalCard.tsx';
import { CopilotQuestion } from './CopilotQuestion.tsx';
import { SaidLine } from './SaidLine.tsx';

const TONE: Record<CopilotStep['status'], string> = {
  thinking: 'pending',
  running: 'pending',
  awaiting_approval: 'pending',
  succeeded: 'ok',
  failed: 'bad',
  invalid: 'bad',
  // The person's own decisions and answers: neither success nor failure.
  denied: 'neutral',
  stopped: 'neutral',
  awaiting_answer: 'pending',
  answered: 'neutral',
  final: 'neutral',
};

/**
 * One step of a run: what the model said (marked as its words), the action with the path it
 * runs on, and what Steward itself saw (outcome, error, evidence). While the gateway waits for
 * the person, the approval card is right here, built from the worker's ApprovalRequest.
 */
export function CopilotStepItem({ runId, step: s }: { runId: string; step: CopilotStep }) {
  const approval = s.status === 'awaiting_approval' ? pendingApprovals.value.find((r) => r.request_id === s.approval_id) : undefined;
  return (
    <li class={`copilot-step tone-${TONE[s.status]}`} aria-labelledby={`step-${s.n}-h`}>
      <h4 id={`step-${s.n}-h`}>
        {t('copilot_step', s.n)}
        {s.action ? (
          <>
            : <code>{s.action.name}</code>
          </>
        ) : null}{' '}
        <span class={`badge tone-${TONE[s.status]}`}>{stepStatusLabel(s.status)}</span>
      </h4>
      {s.partial !== undefined && !s.thought && (
        // Not read out word by word: the whole step is announced once the reply is complete.
        <figure class="claim streaming" aria-live="off" aria-busy="true">
          <figcaption>{t('copilot_model_writing')}</figcaption>
          <blockquote>{s.partial}…</blockquote>
        </figure>
      )}
      {s.thought && (
        <figure class="claim">
          <figcaption>{t('copilot_model_words')}</figcaption>
          <blockquote>{s.thought}</blockquote>
        </figure>
      )}
      {s.action && (
        <dl class="kv small">
          <dt>{t('card_action')}</dt>
          <dd>
            <code>{s.action.name}</code>
            {s.action.resource && <> {t('card_on', `${s.action.resource.type} ${s.action.resource.id}`)}</>}
          </dd>
          <dt>{t('card_runs_via')}</dt>
          <dd>
            <span class="badge path">{viaLabel(s.action.via)}</span>
          </dd>
          {Object.keys(s.action.input).length > 0 && (
            <>
              <dt>{t('copilot_input')}</dt>
              <dd>
                <code>{JSON.stringify(s.action.input)}</code>
              </dd>
            </>
          )}
          {s.state && (
            <>
              <dt>{t('copilot_decided_on')}</dt>
              <dd class="code">{s.state}</dd>
            </>
          )}
        </dl>
      )}
      {s.status === 'awaiting_approval' &&
        (approval ? (
          <ApprovalCard
            request={approval}
            current={new Map()}
            onDecided={(d) => {
              forgetApproval(d.request_id);
              void reloadApprovals();
            }}
          />
        ) : (
          <p class="note">{t('copilot_approval_loading')}</p>
        ))}
      {s.status === 'awaiting_answer' && s.question && <CopilotQuestion runId={runId} step={s} />}
      {s.status === 'answered' && s.question && (
        <dl class="kv small">
          <dt>{t('copilot_asked')}</dt>
          <dd>{s.question}</dd>
          <dt>{t('copilot_you_answered')}</dt>
          <dd>{s.answer}</dd>
        </dl>
      )}
      {/* Steward's own words about the step, in the person's language (the model's are above, marked as its). */}
      {s.outcome && <SaidLine class="step-outcome" label={<span class="result-label">{t('copilot_result_label')}</span>} phrase={s.outcome_said} english={s.outcome} />}
      {s.error && <SaidLine class="error-text" label={<span class="result-label">{t('copilot_error_label')}</span>} phrase={s.error_said} english={s.error} />}
      {s.evidence && <SaidLine class="step-evidence" label={<span class="result-label">{t('copilot_evidence_label')}</span>} phrase={s.evidence_said} english={s.evidence} />}
    </li>
  );
}
