import { z } from 'zod';
import { ActionId, ActionName, IdempotencyKey } from './action-name.ts';
import { ReceiptId } from './action.ts';
import { ErrorCode } from './errors.ts';
import { AgentId, HumanText, InputHash, IsoDateTime } from './primitives.ts';
import { ResourceRef, StateVersion } from './resource.ts';
import { ActionResult } from './results.ts';
import { TokenId } from './token.ts';

/**
 * The durable journal of each action (DESIGN §8): a transition is written before it takes
 * effect, so after a service-worker restart an unfinished action is resumed or resolved by
 * re-reading state, never replayed blindly.
 */

export const JournalState = z.enum(['proposed', 'awaiting_approval', 'approved', 'denied', 'dispatched', 'confirmed', 'failed', 'pending_confirmation', 'unknown']);
export type JournalState = z.infer<typeof JournalState>;

/**
 * The allowed graph. Notes on the less obvious edges:
 * - proposed → dispatched: read-only inside scope runs without approval;
 * - proposed / awaiting_approval / approved → failed: refused by policy, approval expired, or a
 *   precondition no longer holds before dispatch;
 * - pending_confirmation and unknown are resolved later (polling, or re-reading state after a
 *   restart); they never go back to dispatched, which would be a blind replay.
 */
const JOURNAL_TRANSITIONS: Readonly<Record<JournalState, readonly JournalState[]>> = {
  proposed: ['awaiting_approval', 'dispatched', 'failed'],
  awaiting_approval: ['approved', 'denied', 'failed'],
  approved: ['dispatched', 'failed'],
  denied: [],
  dispatched: ['confirmed', 'failed', 'pending_confirmation', 'unknown'],
  pending_confirmation: ['confirmed', 'failed', 'unknown'],
  unknown: ['confirmed', 'failed', 'pending_confirmation'],
  confirmed: [],
  failed: [],
};

export function canTransition(from: JournalState, to: JournalState): boolean {
  return JOURNAL_TRANSITIONS[from].includes(to);
}

/** No further transition: the action has ended. */
export function isTerminal(state: JournalState): boolean {
  return JOURNAL_TRANSITIONS[state].length === 0;
}

export const JournalEntry = z
  .object({
    action_id: ActionId,
    /** Position in this action's history, from 0. */
    seq: z.int().nonnegative(),
    from: JournalState.optional(),
    state: JournalState,
    at: IsoDateTime,
    agent_id: AgentId,
    token_id: TokenId.optional(),
    idempotency_key: IdempotencyKey,
    action: ActionName,
    resource: ResourceRef,
    input_hash: InputHash,
    /** The state_version this step relied on (before) or observed (after). */
    state_version: StateVersion.optional(),
    receipt_id: ReceiptId.optional(),
    result: ActionResult.optional(),
    error_code: ErrorCode.optional(),
    note: HumanText.optional(),
  })
  .superRefine((e, ctx) => {
    if (e.state === 'proposed') {
      if (e.from !== undefined) ctx.addIssue({ code: 'custom', path: ['from'], message: 'a proposed action has no previous state' });
      if (e.seq !== 0) ctx.addIssue({ code: 'custom', path: ['seq'], message: 'proposed is always the first entry (seq 0)' });
    } else if (e.from === undefined) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: `is required: which state led to ${e.state}` });
    } else if (!canTransition(e.from, e.state)) {
      ctx.addIssue({ code: 'custom', path: ['state'], message: `cannot go from ${e.from} to ${e.state}` });
    }
    if (e.state === 'approved' && e.receipt_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['receipt_id'], message: 'an approved action always has its receipt' });
    }
    if (e.state === 'dispatched' && e.token_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['token_id'], message: 'nothing is dispatched without a token' });
    }
  });
export type JournalEntry = z.infer<typeof JournalEntry>;
