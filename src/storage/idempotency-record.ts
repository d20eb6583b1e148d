import { z } from 'zod';
import { ActionId, IdempotencyKey } from '../protocol/action-name.ts';
import { AgentId, InputHash } from '../protocol/primitives.ts';
import { ActionResult } from '../protocol/results.ts';

/** One idempotency key's claim, as stored (validated when read back). */
export const IdempotencyRecord = z.object({
  agent_id: AgentId,
  key: IdempotencyKey,
  /** Hash of action + resource + input: the same key for anything else is a conflict. */
  request_hash: InputHash,
  action_id: ActionId,
  status: z.enum(['in_progress', 'completed']),
  created_at: z.number(),
  completed_at: z.number().optional(),
  /** Set on completion; drives the purge index. */
  expires_at: z.number().optional(),
  result: ActionResult.optional(),
});
export type IdempotencyRecord = z.infer<typeof IdempotencyRecord>;
