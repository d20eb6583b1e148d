import type { ApprovalReason, ApprovalReasonCode } from '../../protocol/approval.ts';
import type { AvailableAction } from '../../protocol/action.ts';
import type { DomClassification } from './dom-risk.ts';

export interface RiskContext {
  /** The agent says its input came from untrusted page or tool content: approval for anything. */
  untrusted_input: boolean;
  /**
   * Steward has given this agent page-derived content (taint.ts): every action that needs
   * approval anyway says so, and is never covered by a time window.
   */
  tainted?: boolean;
  /** Steward's own classification of a DOM action, from the element it targets. */
  dom?: DomClassification;
  /**
   * Reasons Steward found beyond the element's kind (quiet-sinks.ts: a tainted agent's composed
   * address, copied page text, a field that saves as typed; written-controls.ts: a control that
   * wrote before). Each is kept with its own detail: the card shows the URL or the text.
   */
  extra?: readonly ApprovalReason[];
}

/**
 * Why an action needs a person's approval (DESIGN §5 step 7); empty means it may run inside
 * scope without one. Only a read-only, non-consequential, non-payment action with trusted input
 * (WebMCP `readOnlyHint`, a contract's read action, a benign DOM navigation) gets an empty list.
 *
 * For DOM primitives Steward's element-level classification and the observation's own
 * description are combined, the riskier winning: each can only add reasons.
 */
export function approvalReasons(description: AvailableAction, ctx: RiskContext): ApprovalReason[] {
  const reasons = ownReasons(description, ctx);
  if (ctx.tainted && reasons.length > 0 && !reasons.some((r) => r.code === 'untrusted_input')) {
    reasons.push({ code: 'untrusted_input', detail: 'page or tool content has already reached this agent, so this request may have been steered by it' });
  }
  return reasons;
}

function ownReasons(description: AvailableAction, ctx: RiskContext): ApprovalReason[] {
  const reasons: ApprovalReason[] = [];
  const add = (code: ApprovalReasonCode, detail?: string) => {
    if (!reasons.some((r) => r.code === code)) reasons.push(detail ? { code, detail } : { code });
  };
  if (ctx.dom) {
    for (const r of ctx.dom.reasons) add(r.code, r.detail);
    if (ctx.dom.payment) add('payment');
  }
  for (const r of ctx.extra ?? []) if (!reasons.some((x) => x.code === r.code && x.detail === r.detail)) reasons.push(r);
  if (description.payment) add('payment');
  if (ctx.untrusted_input) add('untrusted_input', 'the agent built this input from untrusted page or tool content');
  // Steward's own DOM reasons already say why a control is consequential.
  if (description.consequential && !(ctx.dom && ctx.dom.reasons.length > 0)) add('consequential', consequentialDetail(description));
  if (!description.read_only) add('not_read_only');
  if (ctx.dom) {
    if (!ctx.dom.read_only && reasons.length === 0) add('unknown_risk');
    if (description.requires_approval && reasons.length === 0) add('unknown_risk', 'the observation asks for approval');
    return reasons;
  }
  if (description.requires_approval) {
    if (description.via === 'site_contract') add('site_requires_approval');
    else if (reasons.length === 0) add('unknown_risk', 'the action’s description asks for approval');
  }
  return reasons;
}

function consequentialDetail(d: AvailableAction): string {
  switch (d.via) {
    case 'webmcp':
      return 'the tool declares consequentialHint';
    case 'site_contract':
      return 'the site’s contract marks it consequential';
    case 'adapter':
      return 'the adapter marks it consequential';
    default:
      return 'the observation marks it consequential';
  }
}
