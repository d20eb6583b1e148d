import { useEffect, useMemo, useState } from 'preact/hooks';
import { said } from '../lib/phrases.ts';
import { t } from '../../base/i18n.ts';
import type { CopilotRun } from '../../protocol/copilot.ts';
import { steerCopilot } from '../background-client.ts';
import { rememberRun } from '../copilot-store.ts';
import { budgetMeters, isActive, runStatusLabel } from '../lib/copilot-run.ts';
import { now } from '../now.ts';
import { CopilotBudgets } from './CopilotBudgets.tsx';
import { CopilotEndBlock } from './CopilotEndBlock.tsx';
import { CopilotModelError } from './CopilotModelError.tsx';
import { CopilotStepItem } from './CopilotStepItem.tsx';
import { Words } from './Words.tsx';

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
        <span class="goal">{run.goal}</span> <span class={`badge run-${run.status}`}>{runStatusLabel(run.status)}</span>
      </h3>
      <p class="note">
        <Words id="copilot_run_where" parts={[run.origin, said(run.model_label_said, run.model_label), <code>{run.agent_id}</code>]} />
      </p>
      <CopilotBudgets meters={meters} />
      {active && (
        <div class="actions" role="group" aria-label={t('copilot_control_label')}>
          {run.status === 'paused' ? (
            <button type="button" class="secondary" disabled={busy} onClick={() => void steer('copilot/resume')}>
              {t('copilot_resume')}
            </button>
          ) : (
            <button type="button" class="secondary" disabled={busy} onClick={() => void steer('copilot/pause')}>
              {t('copilot_pause')}
            </button>
          )}
          <button type="button" class="danger" disabled={busy} onClick={() => void steer('copilot/stop')} aria-keyshortcuts="Escape">
            {t('copilot_stop')}
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={() => void steer('copilot/take-over')}>
            {t('copilot_take_over')}
          </button>
          <span class="note">{t('copilot_esc_stops')}</span>
        </div>
      )}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <ol class="copilot-steps" aria-label={t('copilot_steps_label')} aria-live="polite" aria-relevant="additions text">
        {run.steps.map((s) => (
          <CopilotStepItem key={s.n} runId={run.run_id} step={s} />
        ))}
      </ol>
      {run.steps.length === 0 && active && <p class="muted">{t('copilot_first_step')}</p>}
      {run.model_error && <CopilotModelError error={run.model_error} onOpenSettings={onOpenSettings} />}
      {run.end && <CopilotEndBlock end={run.end} run={run} />}
      <p>
        <button type="button" class="link nav" onClick={() => onOpenAudit(run.agent_id)}>
          {t('copilot_audit_link')}
        </button>
      </p>
    </section>
  );
}
