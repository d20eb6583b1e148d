import { z } from 'zod';
import { ActionId, IdempotencyKey } from '../protocol/action-name.ts';
import { ActionRequest, ReceiptId } from '../protocol/action.ts';
import { JournalState } from '../protocol/journal.ts';
import { AgentId, InputHash } from '../protocol/primitives.ts';
import { Source, StateVersion } from '../protocol/resource.ts';
import { TokenId } from '../protocol/token.ts';
import { ExpectedEffect } from '../protocol/expectation.ts';
import { McpSession } from '../protocol/mcp-session.ts';

/** What the agent context contributed that recovery needs to finish the action the same way. */
const ActionContextRecord = z.object({
  /** The input came from untrusted page or tool content (forces approval). */
  untrusted_input: z.boolean(),
  session_id: z.string().min(1).max(128).optional(),
  /** The postcondition that confirms the action (from the agent's plan or the adapter). */
  expect: ExpectedEffect.optional(),
  /** The MCP client session that asked for it: its audit entries name it, also after a restart. */
  mcp_session: McpSession.optional(),
});
type ActionContextRecord = z.infer<typeof ActionContextRecord>;

/**
 * One action in flight or finished: the request as submitted (so recovery can finish it after a
 * restart without the agent), plus the journal's head. The history itself is in `journal`.
 */
export const StoredAction = z.object({
  action_id: ActionId,
  agent_id: AgentId,
  token_id: TokenId,
  idempotency_key: IdempotencyKey,
  request: ActionRequest,
  request_hash: InputHash,
  input_hash: InputHash,
  context: ActionContextRecord,
  state: JournalState,
  seq: z.int().nonnegative(),
  /** 1 while unfinished (IndexedDB cannot index booleans). */
  open: z.union([z.literal(0), z.literal(1)]),
  created_at: z.number(),
  updated_at: z.number(),
  receipt_id: ReceiptId.optional(),
  via: Source.optional(),
  state_version_before: StateVersion.optional(),
  /** The state the dispatched action declares it leads to (declared-effect.ts): what recovery looks for. */
  declared_effect: ExpectedEffect.optional(),
});
export type StoredAction = z.infer<typeof StoredAction>;
