import type { CopilotStep } from '../../protocol/copilot.ts';
import { forgetApproval, pendingApprovals, reloadApprovals } from '../approvals-store.ts';
import { STEP_STATUS_LABEL, viaLabel } from '../lib/copilot-run.ts';
import { ApprovalCard } from './ApprovalCard.tsx';
import { CopilotQuestion } from './CopilotQuestion.tsx';

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
        Step {s.n}
        {s.action ? (
          <>
            : <code>{s.action.name}</code>
          </>
        ) : null}{' '}
        <span class={`badge tone-${TONE[s.status]}`}>{STEP_STATUS_LABEL[s.status]}</span>
      </h4>
      {s.partial !== undefined && !s.thought && (
        // Not read out word by word: the whole step is announced once the reply is complete.
        <figure class="claim streaming" aria-live="off" aria-busy="true">
          <figcaption>The model is writing (not checked by Steward):</figcaption>
          <blockquote>{s.partial}…</blockquote>
        </figure>
      )}
      {s.thought && (
        <figure class="claim">
          <figcaption>The model’s words (not checked by Steward):</figcaption>
          <blockquote>{s.thought}</blockquote>
        </figure>
      )}
      {s.action && (
        <dl class="kv small">
          <dt>Action</dt>
          <dd>
            <code>{s.action.name}</code>
            {s.action.resource && (
              <>
                {' '}
                on {s.action.resource.type} {s.action.resource.id}
              </>
            )}
          </dd>
          <dt>Runs via</dt>
          <dd>
            <span class="badge path">{viaLabel(s.action.via)}</span>
          </dd>
          {Object.keys(s.action.input).length > 0 && (
            <>
              <dt>Input</dt>
              <dd>
                <code>{JSON.stringify(s.action.input)}</code>
              </dd>
            </>
          )}
          {s.state && (
            <>
              <dt>Decided on</dt>
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
          <p class="note">Steward is asking for your approval; the card is loading…</p>
        ))}
      {s.status === 'awaiting_answer' && s.question && <CopilotQuestion runId={runId} step={s} />}
      {s.status === 'answered' && s.question && (
        <dl class="kv small">
          <dt>The co-pilot asked</dt>
          <dd>{s.question}</dd>
          <dt>You answered</dt>
          <dd>{s.answer}</dd>
        </dl>
      )}
      {s.outcome && (
        <p class="step-outcome">
          <span class="result-label">Result:</span> {s.outcome}
        </p>
      )}
      {s.error && (
        <p class="error-text">
          <span class="result-label">Error:</span> {s.error}
        </p>
      )}
      {s.evidence && (
        <p class="step-evidence">
          <span class="result-label">Evidence:</span> {s.evidence}
        </p>
      )}
    </li>
  );
}
