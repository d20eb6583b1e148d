import { useEffect, useMemo, useState } from 'preact/hooks';
import type { CopilotRun } from '../../protocol/copilot.ts';
import { steerCopilot } from '../background-client.ts';
import { rememberRun } from '../copilot-store.ts';
import { RUN_STATUS_LABEL, budgetMeters, isActive } from '../lib/copilot-run.ts';
import { now } from '../now.ts';
import { CopilotBudgets } from './CopilotBudgets.tsx';
import { CopilotEndBlock } from './CopilotEndBlock.tsx';
import { CopilotModelError } from './CopilotModelError.tsx';
import { CopilotStepItem } from './CopilotStepItem.tsx';

type Steer = 'copilot/pause' | 'copilot/resume' | 'copilot/stop' | 'copilot/take-over';

/**
 * One run as it happens: its budgets, the controls (Escape stops), every step streaming in (read
 * out politely), and at the end the answer with a way to its audit entries.
 */
export function CopilotRunView({ run, onOpenSettings, onOpenAudit }: { run: CopilotRun; onOpenSettings: () => void; onOpenAudit: (agentId: string) => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const active = isActive(run);
  // The worker pushes on every change; between pushes the clock keeps the time meter moving.
  const seenAt = useMemo(() => Date.now(), [run]);
  // Time waiting for an answer is not charged to the run.
  const ticking = run.status === 'running' || run.status === 'awaiting_approval';
  const meters = budgetMeters(run, run.budgets.elapsed_ms + (ticking ? Math.max(0, now.value - seenAt) : 0));

  const steer = async (type: Steer) => {
    setBusy(true);
    setError('');
    try {
      rememberRun((await steerCopilot(type, run.run_id)).run);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      void steer('copilot/stop');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, run.run_id]);

  return (
    <section class="copilot-run" aria-labelledby="copilot-run-h">
      <h3 id="copilot-run-h">
        <span class="goal">{run.goal}</span> <span class={`badge run-${run.status}`}>{RUN_STATUS_LABEL[run.status]}</span>
      </h3>
      <p class="note">
        On {run.origin} · model: {run.model_label} · agent <code>{run.agent_id}</code>
      </p>
      <CopilotBudgets meters={meters} />
      {active && (
        <div class="actions" role="group" aria-label="Control the run">
          {run.status === 'paused' ? (
            <button type="button" class="secondary" disabled={busy} onClick={() => void steer('copilot/resume')}>
              Resume
            </button>
          ) : (
            <button type="button" class="secondary" disabled={busy} onClick={() => void steer('copilot/pause')}>
              Pause
            </button>
          )}
          <button type="button" class="danger" disabled={busy} onClick={() => void steer('copilot/stop')} aria-keyshortcuts="Escape">
            Stop
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={() => void steer('copilot/take-over')}>
            Take over
          </button>
          <span class="note">Esc stops the run.</span>
        </div>
      )}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <ol class="copilot-steps" aria-label="Steps" aria-live="polite" aria-relevant="additions text">
        {run.steps.map((s) => (
          <CopilotStepItem key={s.n} runId={run.run_id} step={s} />
        ))}
      </ol>
      {run.steps.length === 0 && active && <p class="muted">Observing the page and asking the model for a first step…</p>}
      {run.model_error && <CopilotModelError error={run.model_error} onOpenSettings={onOpenSettings} />}
      {run.end && <CopilotEndBlock end={run.end} run={run} />}
      <p>
        <button type="button" class="link nav" onClick={() => onOpenAudit(run.agent_id)}>
          Audit entries of this run
        </button>
      </p>
    </section>
  );
}
