import { z } from 'zod';
import { ActionName, IdempotencyKey } from './action-name.ts';
import { ReceiptId } from './action.ts';
import { ErrorCode } from './errors.ts';
import { AgentId, InputHash, IsoDateTime, Sha256Hex, SnakeCase, prefixedId } from './primitives.ts';
import { ResourceRef, StateVersion } from './resource.ts';
import { TokenId } from './token.ts';

/**
 * One entry of the append-only, hash-chained audit log (DESIGN §4). Schema only: computing and
 * verifying `hash` lives with the audit store.
 */

/** Id of an audit entry, quoted in results as `audit_receipt`, e.g. `audit_9812`. */
export const AuditId = prefixedId('audit_', 'audit_9812');
export type AuditId = z.infer<typeof AuditId>;

/** `prev_hash` of the first entry (seq 0): 64 zeros. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

/**
 * Outcome of the `recovery` entry Steward writes (as `agent:steward`) when it starts and finds the
 * stored log disagreeing with its signed head; `details` say where and how (seq, problem, message).
 */
export const AUDIT_CHAIN_BROKEN = 'audit_chain_broken';

export const AuditKind = z.enum([
  'observation', // state version the decision was based on
  'proposal', // an action request entered the pipeline
  'approval_request', // an approval card was queued for the side panel
  'approval', // the user approved: a receipt was issued
  'denial', // the user denied, or policy refused
  'token', // a token was minted, used, revoked or expired
  'dispatch', // the action was sent down a path
  'acceptance', // the site accepted it; confirmation pending
  'confirmation', // the effect was confirmed (or inferred) after execution
  'failure', // execution or verification failed
  'recovery', // an unfinished action was resolved after a service-worker restart
  'taint', // the person cleared an agent's taint (page content had reached it)
  'export', // the audit export's target changed, or its outbox filled up or drained (src/protocol/audit-export.ts)
]);
export type AuditKind = z.infer<typeof AuditKind>;

const AuditEntryBase = z.object({
  audit_id: AuditId,
  seq: z.int().nonnegative(),
  at: IsoDateTime,
  kind: AuditKind,
  agent_id: AgentId,
  token_id: TokenId.optional(),
  receipt_id: ReceiptId.optional(),
  idempotency_key: IdempotencyKey.optional(),
  action: ActionName.optional(),
  resource: ResourceRef.optional(),
  input_hash: InputHash.optional(),
  state_version_before: StateVersion.optional(),
  state_version_after: StateVersion.optional(),
  /** Short snake_case result of this step: `approved`, `pending_confirmation`, `minted`, … */
  outcome: SnakeCase.optional(),
  error_code: ErrorCode.optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  prev_hash: Sha256Hex,
  hash: Sha256Hex,
});

export const AuditEntry = AuditEntryBase.superRefine((e, ctx) => {
  const need = (field: keyof typeof e, why: string) => {
    if (e[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `is required for a ${e.kind} entry: ${why}` });
  };
  if (e.seq === 0 && e.prev_hash !== AUDIT_GENESIS_HASH) {
    ctx.addIssue({ code: 'custom', path: ['prev_hash'], message: 'the first entry (seq 0) must chain from the genesis hash (64 zeros)' });
  }
  // A side effect must be traceable to its token, input and key (security invariants 1, 2, 5).
  if (e.kind === 'dispatch') {
    need('token_id', 'no side effect without a token');
    need('idempotency_key', 'retries must be traceable');
    need('input_hash', 'the exact input must be on record');
    need('action', 'what was dispatched');
    need('resource', 'on what');
  }
  if (e.kind === 'approval') {
    need('receipt_id', 'an approval always yields a receipt');
    need('input_hash', 'a receipt is bound to one input');
  }
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** An entry before its hash is computed (what the hashing function consumes). */
export const UnsealedAuditEntry = AuditEntryBase.omit({ hash: true });
export type UnsealedAuditEntry = z.infer<typeof UnsealedAuditEntry>;
