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
  if (!pre) return undefined;
  const stateDiffers = pre.expected_state !== undefined && pre.expected_state !== observed.state;
  const versionDiffers = pre.state_version !== undefined && pre.state_version !== observed.state_version;
  if (!stateDiffers && !versionDiffers) return undefined;

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
