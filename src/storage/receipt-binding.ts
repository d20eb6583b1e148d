import type { ApprovalReasonCode } from '../protocol/approval.ts';
import { phrase, type Phrase } from '../protocol/phrase.ts';
import { isDomAction } from '../protocol/action-name.ts';
import { resourceWords, sameResource, type ResourceRef, type Source, type StateVersion } from '../protocol/resource.ts';
import type { StoredReceipt } from './approval-records.ts';

/** What a receipt must match to authorise one dispatch. */
export interface ReceiptBinding {
  action_id: string;
  action: string;
  resource: ResourceRef;
  input_hash: string;
  state_version: StateVersion;
  agent_id: string;
  token_id: string;
  /** The path it would run on now. */
  via: Source;
  /** Why this action needs approval; some reasons are never covered by a time window. */
  reasons: readonly ApprovalReasonCode[];
  /** Hash of the values of the form a click would submit, as observed now (form-binding.ts). */
  form_hash?: string;
}

type ReceiptProblem = 'unknown' | 'expired' | 'used' | 'agent_mismatch' | 'action_mismatch' | 'resource_mismatch' | 'input_mismatch' | 'form_changed' | 'state_changed' | 'not_covered';

export type BindingCheck = { ok: true } | { ok: false; problem: ReceiptProblem; message: string };

/** A time window never stands in for a per-action decision on these. */
const WINDOW_EXCLUDED_REASONS: readonly ApprovalReasonCode[] = ['payment', 'untrusted_input', 'form_submission', 'risky_control', 'organisation_policy'];

const EXCLUDED_WHY: Partial<Record<ApprovalReasonCode, string>> = {
  payment: 'it touches money',
  untrusted_input: 'page or tool content has reached this agent, so what it asks for may have been steered by that content',
  form_submission: 'it submits a form, whose values must be approved each time',
  risky_control: 'it presses a control whose name says it buys, deletes, sends, cancels or the like',
  organisation_policy: 'your organisation requires approval for it every time',
};

/**
 * Why a time window ("approve for N minutes") may not stand for this action, or undefined when it
 * may. A window is only ever a repeat of exactly what the card showed (action, resource, input) on
 * a site contract's endpoint, where no page content flows back to the agent: DOM and navigation
 * primitives name a target only by a ref or URL the person never sees again, and a WebMCP tool or
 * an adapter runs in the page, whose output reaches the agent and taints its session.
 */
export function windowRefusal(action: string, via: Source, reasons: readonly ApprovalReasonCode[]): string | undefined {
  if (isDomAction(action) || via === 'legacy_inference') return 'DOM and navigation actions are approved one at a time: a window would let the agent press any other control or open any other address';
  const excluded = reasons.find((code) => WINDOW_EXCLUDED_REASONS.includes(code));
  if (excluded) return `it is approved one at a time: ${EXCLUDED_WHY[excluded]}`;
  if (via !== 'site_contract') return 'only actions sent to a site’s agent contract can be approved for a period: this one runs inside the page, whose content comes back to the agent';
  return undefined;
}

/** windowRefusal's reason as a phrase for the card (the panel says it in the person's language). */
export function windowRefusalPhrase(action: string, via: Source, reasons: readonly ApprovalReasonCode[]): Phrase | undefined {
  if (isDomAction(action) || via === 'legacy_inference') return phrase('window_one_at_a_time');
  const excluded = reasons.find((code) => WINDOW_EXCLUDED_REASONS.includes(code));
  if (excluded) return phrase('window_excluded', { reason: excluded });
  if (via !== 'site_contract') return phrase('window_in_page');
  return undefined;
}

/**
 * Checks a stored receipt against one dispatch. Exact receipts bind everything and are single
 * use (re-entry by the same action id is allowed, so recovery can dispatch the approved action
 * after a restart). Window receipts bind agent, token, action, resource and input — what the
 * card showed — and are re-judged on every use: a window granted before the session was
 * tainted, or stored by an older version, covers nothing that windowRefusal() refuses now.
 */
export function checkReceiptBinding(stored: StoredReceipt, b: ReceiptBinding, now: number): BindingCheck {
  const r = stored.receipt;
  const fail = (problem: ReceiptProblem, message: string): BindingCheck => ({ ok: false, problem, message });
  if (Date.parse(r.expires_at) <= now) return fail('expired', `approval receipt ${r.receipt_id} expired at ${r.expires_at}`);
  if (r.agent_id !== b.agent_id || r.token_id !== b.token_id) return fail('agent_mismatch', `approval receipt ${r.receipt_id} was issued to another agent or token`);
  if (r.action !== b.action) return fail('action_mismatch', `approval receipt ${r.receipt_id} covers ${r.action}, not ${b.action}`);
  // (origin, type, id): a receipt stored before resources had origins names none, and covers nothing now.
  if (!sameResource(r.resource, b.resource)) {
    return fail('resource_mismatch', `approval receipt ${r.receipt_id} covers ${resourceWords(r.resource)}, not ${resourceWords(b.resource)}`);
  }
  if (stored.mode === 'resource_window') {
    const refused = windowRefusal(b.action, b.via, b.reasons);
    if (refused) return fail('not_covered', `a time-window approval does not cover this action (${refused}); approve this one on its own`);
  }
  if (r.input_hash !== b.input_hash) return fail('input_mismatch', `approval receipt ${r.receipt_id} was given for different input`);
  if ((r.form_hash ?? null) !== (b.form_hash ?? null)) {
    return fail('form_changed', `approval receipt ${r.receipt_id} was given for other form values than the form holds now`);
  }
  if (stored.mode === 'resource_window') return { ok: true };
  if (r.state_version !== b.state_version) {
    return fail('state_changed', `approval receipt ${r.receipt_id} was given at state_version ${r.state_version}; the state is now ${b.state_version}`);
  }
  if (stored.used_by.length > 0 && !stored.used_by.includes(b.action_id)) return fail('used', `approval receipt ${r.receipt_id} has already been used`);
  return { ok: true };
}
