import type { ActionRequest } from '../protocol/action.ts';
import { makeError } from '../protocol/errors.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import { errorResult, type ActionErrorResult } from '../protocol/results.ts';
import { summarizeActions } from './capability.ts';

/**
 * Step 6: the agent's preconditions against a fresh observation. Any difference in the expected
 * state or state_version is PRECONDITION_FAILED in the DESIGN §3 shape, with the current state,
 * what can be done now (and whether it needs approval) and a recovery hint.
 */
export function checkPreconditions(request: ActionRequest, observed: ObservedState, actionId?: string): ActionErrorResult | undefined {
  const pre = request.preconditions;
  if (!pre) return notAllowedNow(request, observed, actionId);
  const stateDiffers = pre.expected_state !== undefined && pre.expected_state !== observed.state;
  const versionDiffers = pre.state_version !== undefined && pre.state_version !== observed.state_version;
  if (!stateDiffers && !versionDiffers) return notAllowedNow(request, observed, actionId);

  const what = `${request.resource.type} ${request.resource.id}`;
  const message = stateDiffers
    ? `The ${what} is ${observed.state}, not ${pre.expected_state} as expected (state_version ${observed.state_version}).`
    : `The ${what} changed since it was observed: state_version is ${observed.state_version}, not ${pre.state_version}.`;
  return errorResult(makeError('PRECONDITION_FAILED', message), {
    ...(actionId ? { action_id: actionId } : {}),
    expected: {
      ...(pre.expected_state !== undefined ? { state: pre.expected_state } : {}),
      ...(pre.state_version !== undefined ? { state_version: pre.state_version } : {}),
    },
    current: { state: observed.state, state_version: observed.state_version, source: observed.source },
    available_actions: summarizeActions(observed),
  });
}

/**
 * The site's contract defines the action for this resource but not in its current state (cancel,
 * once shipped): PRECONDITION_FAILED with the states it needs, before any approval is asked for.
 */
function notAllowedNow(request: ActionRequest, observed: ObservedState, actionId?: string): ActionErrorResult | undefined {
  const rule = observed.unavailable_actions?.find((a) => a.action === request.action);
  if (!rule || (observed.actions ?? []).some((a) => a.action === request.action)) return undefined;
  const what = `${request.resource.type} ${request.resource.id}`;
  const needs = rule.allowed_in_states.join(' or ');
  return errorResult(
    makeError('PRECONDITION_FAILED', `The ${what} is ${observed.state}; the site allows ${request.action} only when it is ${needs} (state_version ${observed.state_version}).`, {
      details: { allowed_in_states: rule.allowed_in_states },
    }),
    {
      ...(actionId ? { action_id: actionId } : {}),
      current: { state: observed.state, state_version: observed.state_version, source: observed.source },
      available_actions: summarizeActions(observed),
    },
  );
}
