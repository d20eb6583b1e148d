import type { RunEnd, StepReport } from '../../agent/loop.ts';
import type { ActionRequest } from '../../protocol/action.ts';
import type { CopilotEnd, CopilotStep } from '../../protocol/copilot.ts';
import { isErrorResult, type ActionResult } from '../../protocol/results.ts';
import { phrase } from '../../protocol/phrase.ts';

/** How the run's steps and end look to the panel (pure): the loop's reports and the pipeline's results, in bounded sentences. */

const clip = (s: string, n = 2000) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The run's steps with `step` in place of the entry of its number: one entry per step number, in
 * order. A step is reported several times as it goes (thinking, running, its result, the final
 * answer); every report of a number replaces the one before, so none is left behind as an orphan.
 */
export function putStep(steps: readonly CopilotStep[], step: CopilotStep): CopilotStep[] {
  return [...steps.filter((s) => s.n !== step.n), step].sort((a, b) => a.n - b.n);
}

/** The step number the loop encoded in the idempotency key (`<run_id>.step-<n>`). */
export function stepOfKey(key: string): number | undefined {
  const m = /\.step-(\d+)$/.exec(key);
  return m ? Number(m[1]) : undefined;
}

export function actionOf(request: ActionRequest, via: string | undefined): NonNullable<CopilotStep['action']> {
  return { name: request.action, ...(via ? { via } : {}), ...(request.resource ? { resource: request.resource } : {}), input: request.input, idempotency_key: request.idempotency_key };
}

type ResultView = Pick<CopilotStep, 'status' | 'outcome' | 'error' | 'evidence' | 'outcome_said' | 'error_said' | 'evidence_said'>;

/** A pipeline result as the step's status, outcome sentence, error and evidence (each also as a phrase for the panel). */
export function resultView(r: ActionResult): ResultView {
  // The person's "no" (Deny, or Escape on the card) is their decision, not a failure of the step.
  if (isErrorResult(r) && r.error.code === 'APPROVAL_DENIED') return { status: 'denied', outcome: 'You denied this action; nothing was done.', outcome_said: phrase('step_denied') };
  // A DOM step the page refused says why (the control is covered, hidden, disabled…); any other refusal by its code.
  if (isErrorResult(r)) return { status: 'failed', error: clip(`${r.error.code}: ${r.error.message}`), error_said: r.error_said ?? phrase('step_refused', { code: r.error.code }) };
  const { status, certainty } = r.execution;
  const values = { status, certainty, type: r.resource.type, id: r.resource.id, ...(r.resource.state ? { state: r.resource.state } : {}) };
  const resource = `${r.resource.type} ${r.resource.id}${r.resource.state ? ` is ${r.resource.state}` : ''}`;
  const outcome = { outcome: clip(`${status} (${certainty}); ${resource}`), outcome_said: phrase('step_result', values) };
  if (status === 'confirmed' || status === 'accepted')
    return { status: 'succeeded', ...outcome, evidence: clip(`${r.action_id} ${status} (${certainty}), ${resource}`), evidence_said: phrase('step_evidence', { action_id: r.action_id, ...values }) };
  // The page's own words (bounded, untrusted) say why, when the tool said: the message quotes them as the page's.
  const said = r.execution.error;
  const why = said ? `: ${said.code}: ${said.message}` : '';
  return {
    status: 'failed',
    ...outcome,
    error: clip(`${r.action_id} ${status}${why}`),
    error_said: phrase('step_site_failed', { action_id: r.action_id, status, ...(said ? { code: said.code, message: said.message } : {}) }),
  };
}

/** The step the loop reported, merged over what was shown live (the live view keeps the pipeline's own result). */
export function reportedStep(report: StepReport, live: CopilotStep | undefined): CopilotStep {
  const { entry } = report;
  const base: CopilotStep = { ...(live ?? {}), n: entry.n, status: live?.status ?? 'failed', state: clip(entry.state, 500) };
  delete base.approval_id;
  delete base.partial;
  // Words replaced here by the loop's own (the model's reply, a read) carry no phrase: the panel shows them as they are.
  const own = (field: 'error' | 'outcome'): CopilotStep => {
    const step = { ...base };
    delete step[`${field}_said`];
    return step;
  };
  if (!entry.step) return { ...own('error'), status: 'invalid', error: clip(entry.outcome ?? 'the model’s reply was invalid') };
  if (entry.step.kind === 'read') return { ...own('outcome'), status: 'succeeded', thought: clip(entry.step.thought), outcome: clip(entry.outcome ?? '') };
  if (entry.step.kind === 'ask_person') return { ...base, status: 'answered', thought: clip(entry.step.thought), question: clip(entry.step.question), answer: clip(entry.outcome ?? '') };
  if (entry.step.kind !== 'act') return { ...base, status: 'final', thought: clip(entry.step.thought) };
  const withModel: CopilotStep = { ...base, thought: clip(entry.step.thought), expect: clip(entry.step.expect), ...(entry.evidence ? { evidence: clip(entry.evidence) } : {}) };
  if (live?.status === 'succeeded' || live?.status === 'failed' || live?.status === 'denied') return withModel;
  // No result was seen live (submit threw): the loop's outcome says why.
  const failed: CopilotStep = { ...withModel, status: 'failed', error: clip(entry.outcome ?? 'no result') };
  delete failed.error_said;
  return failed;
}

/** The loop's end in the contract's words. */
export function endView(end: RunEnd): CopilotEnd {
  if (end.kind === 'done')
    return end.verified
      ? { kind: 'done', verified: true, claim: clip(end.claim), evidence: clip(end.evidence) }
      : { kind: 'done', verified: false, claim: clip(end.claim), why: clip(end.why), ...(end.why_said ? { why_said: end.why_said } : {}) };
  return {
    kind: 'stopped',
    reason: end.reason,
    detail: clip(end.detail),
    ...(end.detail_said ? { detail_said: end.detail_said } : {}),
    ...(end.errors ? { errors: end.errors.slice(-10).map((e) => clip(e)) } : {}),
    ...(end.errors_said ? { errors_said: end.errors_said.slice(-10) } : {}),
  };
}

/** The final step shown for a `done` or a question, so the panel's list ends with the model's last word. */
export function finalStep(n: number, end: CopilotEnd, state: string | undefined): CopilotStep {
  const outcome = end.kind === 'done' ? end.claim : end.detail;
  return { n, status: 'final', outcome: clip(outcome), ...(end.kind === 'done' && end.evidence ? { evidence: end.evidence } : {}), ...(state ? { state: clip(state, 500) } : {}) };
}
