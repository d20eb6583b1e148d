import { makeError } from '../protocol/errors.ts';
import type { JournalState } from '../protocol/journal.ts';
import { errorResult, type ActionResult } from '../protocol/results.ts';
import type { StoredAction } from '../storage/action-record.ts';
import type { ActionRun, ActionRunner } from './runner.ts';
import { Stopwatch } from './timings.ts';

export interface RecoveryReport {
  action_id: string;
  from: JournalState;
  /** `waiting`: its approval card is still pending, or its path took it up again; it continues in the background. */
  to: JournalState | 'waiting' | 'unchanged';
  result?: ActionResult;
}

const interrupted = (actionId: string) =>
  errorResult(
    makeError('EXECUTION_FAILED', 'Interrupted by a service-worker restart before anything was dispatched; nothing was done.', {
      retryable: true,
      recovery_hint: 'Nothing took effect: resubmit the same request with the same idempotency key.',
    }),
    { action_id: actionId },
  );

/** What recovery resumes actions with: the runner, and the Pipeline's wait for a decision. */
export interface Resumer {
  readonly runner: ActionRunner;
  awaitDecision(run: ActionRun, requestId: string): Promise<ActionResult>;
}

/**
 * Resolves one unfinished action after a service-worker restart (DESIGN §8), never by blind replay:
 * - proposed: nothing was decided or dispatched → failed, key released (the agent may retry);
 * - awaiting_approval: the card persisted; a decision already made is applied, a pending one
 *   is waited for in the background (`track`), no card → failed;
 * - approved: the approval stands; state re-read, token and preconditions and the receipt's
 *   binding re-checked, then dispatched once (the journal refuses a second `dispatched`);
 * - dispatched: a path that can still finish it (a page's WebMCP tool that asked to continue in
 *   its next document, its token waiting) takes it up in the background (`track`) at the point it
 *   had reached, and the action ends with that run; otherwise as below;
 * - dispatched / pending_confirmation / unknown: the resource is re-read and the effect looked
 *   for; it is never executed again.
 */
export async function recoverAction(pipeline: Resumer, action: StoredAction, track: (p: Promise<unknown>) => void): Promise<RecoveryReport> {
  const { runner } = pipeline;
  const { tokens, approvals } = runner.deps;
  const from = action.state;
  const token = await tokens.get(action.token_id).catch(() => undefined);
  const report = (to: RecoveryReport['to'], result?: ActionResult): RecoveryReport => ({ action_id: action.action_id, from, to, ...(result ? { result } : {}) });
  if (!token) {
    // Without its token the action can neither run nor be located; end what had not run yet.
    if (from === 'proposed' || from === 'awaiting_approval' || from === 'approved') {
      const run = runner.newRun(action, undefined, new Stopwatch());
      return report('failed', await runner.stop(run, errorResult(makeError('TOKEN_INVALID', 'The agent token is gone; the unfinished action was not dispatched.'), { action_id: action.action_id })));
    }
    return report('unchanged');
  }
  const run = runner.newRun(action, token, new Stopwatch());
  run.trail.step('recovery', { outcome: 'resuming', details: { state: from } });

  switch (from) {
    case 'proposed':
      return report('failed', await runner.stop(run, interrupted(action.action_id)));
    case 'awaiting_approval': {
      const cards = await approvals.forAction(action.action_id);
      const card = cards.sort((a, b) => Date.parse(b.request.requested_at) - Date.parse(a.request.requested_at))[0];
      if (!card) return report('failed', await runner.stop(run, interrupted(action.action_id)));
      const outcome = await approvals.outcome(card.request.request_id);
      if (outcome === 'pending') {
        track(pipeline.awaitDecision(run, card.request.request_id));
        return report('waiting');
      }
      const result = await pipeline.awaitDecision(run, card.request.request_id);
      return report((await runner.deps.journal.action(action.action_id))?.state ?? 'unchanged', result);
    }
    case 'approved': {
      if (!action.receipt_id) return report('failed', await runner.stop(run, interrupted(action.action_id)));
      const { result } = await runner.run(run, { receipt_id: action.receipt_id });
      return report((await runner.deps.journal.action(action.action_id))?.state ?? 'unchanged', result);
    }
    case 'dispatched': {
      const resumed = await runner.resumeDispatched(run);
      if (resumed) {
        track(resumed.ended);
        return report('waiting');
      }
      const r = await runner.resolveDispatched(run);
      return report(r.to, r.result);
    }
    case 'pending_confirmation':
    case 'unknown': {
      const r = await runner.resolveDispatched(run);
      return report(r.to, r.result);
    }
    default:
      return report('unchanged');
  }
}
