import type { ActionResult } from '../../../src/protocol/results.ts';

/** One or two sentences about an ActionResult, in Steward's own words (the result itself is page data). */
export function describeActionResult(result: ActionResult, idempotencyKey?: string): { text: string; isError: boolean } {
  const again = idempotencyKey ? `steward_execute again with the same idempotency_key ("${idempotencyKey}")` : 'steward_execute again with the same idempotency_key';
  if ('error' in result) {
    const { code, message } = result.error;
    const id = result.action_id ? ` (action_id ${result.action_id})` : '';
    if (code === 'APPROVAL_REQUIRED') {
      return {
        isError: false,
        text: `Waiting for the person${id}: this action needs approval, and the person decides in Steward's side panel in the browser. Nothing has been done yet. Tell the person, then call ${again}: it returns IN_PROGRESS while they decide, and the final result once they have. Do not use a new key (that would ask again).`,
      };
    }
    if (code === 'IN_PROGRESS') {
      return {
        isError: false,
        text: `Still in progress${id}: waiting for the person's decision in Steward's side panel, or running. Nothing to report as done yet; call ${again} (or steward_action_status) a little later.`,
      };
    }
    const hint = result.recovery_hint ?? result.error.recovery_hint;
    return { isError: true, text: `Not done — ${code}${id}: ${message}${hint ? `\nWhat to do: ${hint}` : ''}` };
  }
  const { execution, resource, action_id } = result;
  const where = `${resource.type} ${resource.id}`;
  switch (execution.status) {
    case 'confirmed':
      return {
        isError: false,
        text:
          execution.certainty === 'confirmed'
            ? `Done and confirmed (action_id ${action_id}): ${where} is now "${resource.state}" (version ${resource.state_version}).`
            : `Done, inferred from partial evidence (action_id ${action_id}): ${where} appears to be "${resource.state}". Say it is likely done, not certain.`,
      };
    case 'accepted':
      return { isError: false, text: `Accepted but NOT confirmed yet (action_id ${action_id}, pending_confirmation): do not report it as done; check later with steward_action_status.` };
    case 'failed':
      return { isError: true, text: `Failed (action_id ${action_id}, certainty ${execution.certainty}) on ${where}${execution.error ? `: ${execution.error.code}` : ''}.` };
    case 'unknown':
      return {
        isError: true,
        text: `Outcome unknown (action_id ${action_id}) on ${where}: check with steward_action_status or steward_observe before trying anything else; retry only with the same idempotency_key.`,
      };
  }
}
