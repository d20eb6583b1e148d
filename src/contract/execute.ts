import { iso } from '../base/clock.ts';
import { requestHash } from '../base/hash.ts';
import { ExecuteBody, SiteActionResult, type AgentContract } from '../protocol/agent-contract.ts';
import type { ResourceRef } from '../protocol/resource.ts';
import type { ExecutionCall, ExecutionReport } from '../pipeline/ports.ts';
import type { DiscoveredContract } from './ports.ts';
import { sameOriginUrl, shapeError, siteRefusal, type SiteAnswer, type SiteCallError } from './site-call.ts';

/**
 * POST execute: the body Steward sends for one ExecutionCall, and what the site's answer means
 * for the pipeline. The rule for failures is whether the site could have acted: a refusal in the
 * contract's form means it did not; anything else (no answer, 5xx, still running, an answer we
 * cannot read) means it may have.
 */

/** The request parts beyond the body: Idempotency-Key and If-Match. */
export interface ExecuteRequest {
  body: ExecuteBody;
  idempotencyKey: string;
  ifMatch?: number;
}

/** The contract's definition of the action for this resource type, if it has one. */
export function contractActionFor(contract: AgentContract, action: string, resourceType: string) {
  return contract.actions.find((a) => a.name === action && a.resource_type === resourceType);
}

/**
 * The execute request for a call: preconditions and If-Match from the state_version the call was
 * planned on (when it is the site's integer), the approval receipt when the person approved it,
 * bound to `{action, resource, input}` by its hash. Throws when the call cannot make a valid body.
 */
export async function executeRequestFor(call: ExecutionCall, now: number): Promise<ExecuteRequest> {
  const resource = { type: call.resource.type, id: call.resource.id };
  const version = call.observed?.state_version;
  const planned = typeof version === 'number' ? version : undefined;
  const body = ExecuteBody.parse({
    action: call.action,
    resource,
    input: call.input,
    ...(planned !== undefined ? { preconditions: { state_version: planned } } : {}),
    ...(call.receipt_id !== undefined ? { approval: { receipt_id: call.receipt_id, approved_at: iso(now), input_hash: await requestHash(call.action, resource, call.input) } } : {}),
  });
  return { body, idempotencyKey: call.action_id, ...(planned !== undefined ? { ifMatch: planned } : {}) };
}

const mayHaveRun = (message: string, site_error?: SiteCallError & { code: 'refused' }): ExecutionReport => ({
  outcome: 'failed',
  message,
  side_effect_possible: true,
  ...(site_error ? { site_error: site_error.site_error } : {}),
});

const sameResource = (a: ResourceRef, b: ResourceRef) => a.type === b.type && a.id === b.id;

/**
 * A 200/202 body as a report. From execute: 200 confirmed, 202 accepted. From a status poll:
 * 200 with any of confirmed / accepted / failed (the site tried and it did not happen), 202 accepted.
 */
function resultReport(contract: DiscoveredContract, status: number, json: unknown, resource: ResourceRef | undefined, from: 'execute' | 'status'): ExecutionReport {
  const parsed = SiteActionResult.safeParse(json);
  if (!parsed.success) return mayHaveRun(shapeError(status, "the site's result", parsed.error.issues).message);
  const result = parsed.data;
  if (resource && !sameResource(result.resource, resource)) return mayHaveRun(`the site answered about ${result.resource.type} ${result.resource.id}, not ${resource.type} ${resource.id}`);
  const resource_state = { state: result.resource.state, state_version: result.resource.state_version };
  const execution = result.execution;
  const expected = status === 202 ? ['accepted'] : from === 'execute' ? ['confirmed'] : ['confirmed', 'accepted', 'failed'];
  if (!expected.includes(execution.status)) return mayHaveRun(`HTTP ${status} with a ${execution.status} result`);
  switch (execution.status) {
    case 'confirmed': {
      // The confirmed shape is the only one with these fields (both default to []).
      const done = result as Extract<SiteActionResult, { effects: unknown }>;
      return { outcome: 'confirmed', resource_state, effects: done.effects, available_actions: done.available_actions };
    }
    case 'accepted': {
      const statusUrl = sameOriginUrl(contract, execution.status_url);
      if (statusUrl === undefined) return mayHaveRun('the site accepted it but named a status URL off its own origin');
      return { outcome: 'accepted', status_url: statusUrl, resource_state };
    }
    case 'failed':
      return {
        outcome: 'failed',
        message: `the site did not do it: ${execution.error.message}`.slice(0, 4096),
        side_effect_possible: false,
        site_error: { error: execution.error, current: resource_state },
      };
  }
}

/** The site's answer to execute as the pipeline's ExecutionReport. */
export function executeReportOf(contract: DiscoveredContract, resource: ResourceRef, answer: SiteAnswer): ExecutionReport {
  if (answer.kind === 'failed') return mayHaveRun(`the site's answer could not be read, so it may have acted: ${answer.error.message}`);
  const { status, json } = answer;
  if (status === 200 || status === 202) return resultReport(contract, status, json, resource, 'execute');
  const refusal = siteRefusal(status, json);
  if (refusal.code !== 'refused') return mayHaveRun(`${refusal.message}, so it may have acted`);
  const code = refusal.site_error.error.code;
  // Still running, or an earlier request under this key exists with another body: it may have run.
  if (status < 400 || status >= 500 || code === 'IN_PROGRESS' || code === 'IDEMPOTENCY_CONFLICT') return mayHaveRun(`the site answered HTTP ${status} ${code}: ${refusal.message}`, refusal);
  return { outcome: 'failed', message: `the site refused: ${refusal.message}`.slice(0, 4096), side_effect_possible: false, site_error: refusal.site_error };
}

/**
 * The site's answer to a status poll. Only the site's word settles an accepted action: a poll
 * that got no readable answer (network, 5xx, garbage) leaves it `accepted`, to be asked again; a
 * refusal (the grant ended, the action is unknown) means Steward can no longer learn the outcome.
 */
export function statusReportOf(contract: DiscoveredContract, statusUrl: string, resource: ResourceRef | undefined, answer: SiteAnswer): ExecutionReport {
  const stillPending: ExecutionReport = { outcome: 'accepted', status_url: statusUrl };
  if (answer.kind === 'failed' || answer.status >= 500) return stillPending;
  const { status, json } = answer;
  if (status === 200 || status === 202) {
    return SiteActionResult.safeParse(json).success ? resultReport(contract, status, json, resource, 'status') : stillPending;
  }
  const refusal = siteRefusal(status, json);
  if (refusal.code !== 'refused') return stillPending;
  return mayHaveRun(`the site no longer answers for this action (${refusal.site_error.error.code}): ${refusal.message}`, refusal);
}

/** A call that cannot be sent: nothing reached the site. */
export function notSent(message: string, toolNotFound = false): ExecutionReport {
  return { outcome: 'failed', message: message.slice(0, 4096), side_effect_possible: false, ...(toolNotFound ? { code: 'TOOL_NOT_FOUND' as const } : {}) };
}
