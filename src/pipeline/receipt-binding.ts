import type { ApprovalReasonCode } from '../protocol/approval.ts';
import type { ResourceRef, StateVersion } from '../protocol/resource.ts';
import type { StoredReceipt } from '../storage/approval-records.ts';

/** What a receipt must match to authorise one dispatch. */
export interface ReceiptBinding {
  action_id: string;
  action: string;
  resource: ResourceRef;
  input_hash: string;
  state_version: StateVersion;
  agent_id: string;
  token_id: string;
  /** Why this action needs approval; some reasons are never covered by a time window. */
  reasons: readonly ApprovalReasonCode[];
}

export type ReceiptProblem =
  | 'unknown'
  | 'expired'
  | 'used'
  | 'agent_mismatch'
  | 'action_mismatch'
  | 'resource_mismatch'
  | 'input_mismatch'
  | 'state_changed'
  | 'not_covered';

export type BindingCheck = { ok: true } | { ok: false; problem: ReceiptProblem; message: string };

/** A time window never stands in for a per-action decision on these. */
export const WINDOW_EXCLUDED_REASONS: readonly ApprovalReasonCode[] = ['payment', 'untrusted_input'];

/**
 * Checks a stored receipt against one dispatch. Exact receipts bind everything and are single
 * use (re-entry by the same action id is allowed, so recovery can dispatch the approved action
 * after a restart). Window receipts bind agent, token, action and resource only.
 */
export function checkReceiptBinding(stored: StoredReceipt, b: ReceiptBinding, now: number): BindingCheck {
  const r = stored.receipt;
  const fail = (problem: ReceiptProblem, message: string): BindingCheck => ({ ok: false, problem, message });
  if (Date.parse(r.expires_at) <= now) return fail('expired', `approval receipt ${r.receipt_id} expired at ${r.expires_at}`);
  if (r.agent_id !== b.agent_id || r.token_id !== b.token_id) return fail('agent_mismatch', `approval receipt ${r.receipt_id} was issued to another agent or token`);
  if (r.action !== b.action) return fail('action_mismatch', `approval receipt ${r.receipt_id} covers ${r.action}, not ${b.action}`);
  if (r.resource.type !== b.resource.type || r.resource.id !== b.resource.id) {
    return fail('resource_mismatch', `approval receipt ${r.receipt_id} covers ${r.resource.type}:${r.resource.id}, not ${b.resource.type}:${b.resource.id}`);
  }
  if (stored.mode === 'resource_window') {
    const excluded = b.reasons.find((code) => WINDOW_EXCLUDED_REASONS.includes(code));
    if (excluded) return fail('not_covered', `a time-window approval does not cover an action that needs approval for ${excluded}; approve this one on its own`);
    return { ok: true };
  }
  if (r.input_hash !== b.input_hash) return fail('input_mismatch', `approval receipt ${r.receipt_id} was given for different input`);
  if (r.state_version !== b.state_version) {
    return fail('state_changed', `approval receipt ${r.receipt_id} was given at state_version ${r.state_version}; the state is now ${b.state_version}`);
  }
  if (stored.used_by.length > 0 && !stored.used_by.includes(b.action_id)) return fail('used', `approval receipt ${r.receipt_id} has already been used`);
  return { ok: true };
}
