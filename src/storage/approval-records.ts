import { z } from 'zod';
import { ActionId } from '../protocol/action-name.ts';
import { ReceiptId } from '../protocol/action.ts';
import { ApprovalReceipt, ApprovalRequest, CardWithdrawal } from '../protocol/approval.ts';
import { HumanText, UserId } from '../protocol/primitives.ts';

/** A queued approval and what became of it. */
export const StoredApproval = z.object({
  request: ApprovalRequest,
  /** The journaled action waiting on this decision. */
  action_id: ActionId,
  /** The agent's session it came from (a pending card holds its form against that session). */
  session_id: z.string().min(1).max(128).optional(),
  status: z.enum(['pending', 'approved', 'denied', 'expired']),
  decided_at: z.number().optional(),
  decided_by: UserId.optional(),
  receipt_id: ReceiptId.optional(),
  reason: HumanText.optional(),
  withdrawn: CardWithdrawal.optional(),
});
export type StoredApproval = z.infer<typeof StoredApproval>;

/**
 * `exact`: one use, for exactly the receipt's action, resource, input hash (and form values) and
 * state_version. `resource_window` ("approve for N minutes"): the same action on the same
 * resource with the same input, by the same agent and token, at any state_version, until
 * expiry; only where receipt-binding.ts windowRefusal() allows a window, judged on every use.
 */
const ReceiptMode = z.enum(['exact', 'resource_window']);
type ReceiptMode = z.infer<typeof ReceiptMode>;

export const StoredReceipt = z.object({
  receipt: ApprovalReceipt,
  mode: ReceiptMode,
  /** Action ids that used it (one for `exact`; bounded for windows). */
  used_by: z.array(ActionId).max(1000),
  last_used_at: z.number().optional(),
});
export type StoredReceipt = z.infer<typeof StoredReceipt>;
