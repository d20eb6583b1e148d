import type { JournalState } from '../protocol/journal.ts';
import type { ActionResult } from '../protocol/results.ts';
import type { PipelineDeps } from './runner.ts';

/** What became of a key found claimed by an action that is not running. */
export type KeyOutcome = 'released' | 'completed' | 'running';

export interface KeyReport {
  agent_id: string;
  key: string;
  action_id: string;
  outcome: KeyOutcome;
}

/** States in which the action's result is settled for now; its key answers with that result. */
const SETTLED: readonly JournalState[] = ['denied', 'confirmed', 'failed', 'pending_confirmation', 'unknown'];

/**
 * Settles an idempotency key still claimed (`in_progress`) by an action that is not running in
 * this service worker, against the journal, which is the record of what happened:
 * - no journal record: nothing was even proposed → released, so the agent's retry runs;
 * - the action's outcome is settled: once anything was dispatched (or the person denied it) the
 *   key keeps the journal's result, replayed and never rerun; an action that ended before
 *   dispatch frees its key, as the pipeline would have;
 * - the action is unfinished: recovery resolves it, and its key with it → `running`.
 */
export async function reconcileKey(deps: Pick<PipelineDeps, 'journal' | 'idempotency'>, actionId: string, key: string, agentId: string): Promise<KeyOutcome> {
  const { journal, idempotency } = deps;
  const head = await journal.action(actionId);
  if (!head) {
    await idempotency.release(agentId, key, actionId);
    return 'released';
  }
  if (!SETTLED.includes(head.state)) return 'running';
  const history = await journal.history(actionId);
  const dispatched = history.some((e) => e.state === 'dispatched');
  if (!dispatched && head.state !== 'denied') {
    await idempotency.release(agentId, key, actionId);
    return 'released';
  }
  const recorded = [...history].reverse().find((e) => e.result)?.result;
  const result: ActionResult = recorded ?? { action_id: actionId, resource: head.request.resource, execution: { status: 'unknown', certainty: 'unknown' } };
  await idempotency.complete(agentId, key, actionId, result);
  return 'completed';
}

/** Every claimed key whose action is not running here (`live`), settled as above. Run at start-up, after recovery. */
export async function reconcileKeys(deps: Pick<PipelineDeps, 'journal' | 'idempotency'>, live: ReadonlySet<string>): Promise<KeyReport[]> {
  const reports: KeyReport[] = [];
  for (const record of await deps.idempotency.inProgress()) {
    if (live.has(record.action_id)) continue;
    const outcome = await reconcileKey(deps, record.action_id, record.key, record.agent_id);
    if (outcome !== 'running') reports.push({ agent_id: record.agent_id, key: record.key, action_id: record.action_id, outcome });
  }
  return reports;
}
