import { iso } from '../base/clock.ts';
import { withDeadline } from '../base/deadline.ts';
import { PAGE_DEADLINES } from '../protocol/deadlines.ts';
import { makeError } from '../protocol/errors.ts';
import type { JournalState } from '../protocol/journal.ts';
import { isErrorResult, type ActionResult } from '../protocol/results.ts';
import type { StoredAction } from '../storage/action-record.ts';
import type { IdempotencyStore } from '../storage/idempotency-store.ts';
import type { JournalStore } from '../storage/journal-store.ts';
import type { Clock } from '../base/clock.ts';
import type { AuditTrail } from './audit-trail.ts';
import type { ExecutionReport, PipelinePorts } from './ports.ts';

const UNCHANGED = { to: 'unchanged' } as const;

/** What settling needs of the runner's run and dependencies (not the runner itself: no cycle). */
interface SiteStatusRun {
  action: StoredAction;
  trail: AuditTrail;
}
interface SiteStatusDeps {
  journal: JournalStore;
  idempotency: IdempotencyStore;
  clock: Clock;
  ports: PipelinePorts;
}

/**
 * An accepted site_contract action: asks the site's status endpoint (Executor.status) where it
 * stands. Confirmed or failed there settles it; anything else (still accepted, unreachable, no
 * status URL) leaves it pending for the next recheck.
 */
export async function settleFromSite(run: SiteStatusRun, deps: SiteStatusDeps): Promise<{ to: JournalState | 'unchanged'; result?: ActionResult }> {
  const { action } = run;
  const executor = deps.ports.executors.site_contract;
  const history = await deps.journal.history(action.action_id);
  const accepted = [...history]
    .reverse()
    .map((e) => e.result)
    .find((r) => r !== undefined && !isErrorResult(r) && r.execution.status === 'accepted');
  const statusUrl = accepted && !isErrorResult(accepted) && accepted.execution.status === 'accepted' ? accepted.execution.status_url : undefined;
  // Polled every second while the person may be watching: only a settlement is audited, so an
  // action the site never settles cannot fill the audit log.
  if (!executor?.status || !statusUrl) return UNCHANGED; // no status endpoint to ask
  const ctx = { agent_id: action.agent_id, action_id: action.action_id, ...(action.context.session_id ? { session_id: action.context.session_id } : {}) };
  let report: ExecutionReport;
  try {
    report = await withDeadline(
      executor.status({ action_id: action.action_id, resource: action.request.resource, status_url: statusUrl, agent_id: action.agent_id, ctx }),
      PAGE_DEADLINES.execution_ms,
      'the site status endpoint',
    );
  } catch {
    return UNCHANGED; // the site could not be asked now; the next poll or recheck asks again
  }
  const at = iso(deps.clock());
  let result: ActionResult;
  let to: JournalState;
  if (report.outcome === 'confirmed' && report.resource_state) {
    result = {
      action_id: action.action_id,
      resource: { ...action.request.resource, ...report.resource_state },
      source: 'site_contract',
      execution: { status: 'confirmed', certainty: 'confirmed', executed_at: at, verified_by: 'site_contract' },
      ...(report.effects?.length ? { effects: report.effects } : {}),
      ...(report.available_actions ? { available_actions: report.available_actions } : {}),
    };
    to = 'confirmed';
  } else if (report.outcome === 'failed' && !report.side_effect_possible) {
    const error = report.site_error?.error ?? makeError('EXECUTION_FAILED', `${action.request.action} did not take effect: ${report.message}`.slice(0, 4096));
    const current = report.site_error?.current;
    result = {
      action_id: action.action_id,
      resource: { ...action.request.resource, ...(current ? { state: current.state, state_version: current.state_version } : {}) },
      source: 'site_contract',
      execution: { status: 'failed', certainty: 'confirmed', executed_at: at, error },
    };
    to = 'failed';
  } else {
    return UNCHANGED; // not confirmed yet, or an answer that settles nothing
  }
  const after = !isErrorResult(result) ? result.resource.state_version : undefined;
  await deps.journal.transition(action.action_id, to, { result, ...(after !== undefined ? { state_version: after } : {}), note: "settled by the site's status endpoint" });
  const auditId = await run.trail.finish('recovery', {
    outcome: to === 'confirmed' ? 'confirmed_confirmed' : 'failed',
    ...(action.state_version_before !== undefined ? { state_version_before: action.state_version_before } : {}),
    ...(after !== undefined ? { state_version_after: after } : {}),
    details: { resolved_from: action.state, via: 'site_contract', verified_by: 'site_contract' },
  });
  const final: ActionResult = auditId ? { ...result, audit_receipt: auditId } : result;
  await deps.idempotency.complete(action.agent_id, action.idempotency_key, action.action_id, final);
  return { to, result: final };
}
