import { z } from 'zod';
import { AvailableAction } from '../protocol/action.ts';
import { StateVersion } from '../protocol/resource.ts';
import { ToolDescriptor } from '../protocol/webmcp.ts';

/**
 * A continuation chain as the book keeps it across a service-worker restart
 * (src/webmcp/continuations.ts), and the storage port it is kept through. Every record read back
 * is checked against these schemas; one that does not read is dropped, and its token refused.
 */

/** What the call was planned as (its capability and the page it was planned on): what a restarted pipeline verifies the chain's end by. */
export const PlannedCall = z.object({
  description: AvailableAction,
  tool: ToolDescriptor.optional(),
  observed: z.object({ url: z.string().max(8192), state_version: StateVersion }).optional(),
});
export type PlannedCall = z.infer<typeof PlannedCall>;

const TOKEN_PATTERN = /^stwc_[A-Za-z0-9_-]{8,64}$/;

/** One chain as the book keeps it across a worker restart. */
export const SavedChain = z.object({
  action_id: z.string().min(1).max(128),
  idempotency_key: z.string().min(1).max(256),
  tabId: z.number().int().nonnegative(),
  origin: z.string().min(1).max(2048),
  tool: z.string().min(1).max(256),
  runs: z.number().int().nonnegative(),
  /** When the call's whole chain must have ended (PAGE_DEADLINES.execution_ms from its dispatch). */
  ends_by: z.number(),
  /** What the earlier links answered, in order (the page's words, data only). */
  said: z.array(z.string().max(1_000_000)).max(64),
  planned: PlannedCall,
  issued: z.object({ token: z.string().regex(TOKEN_PATTERN), minted_at: z.number(), redeemed: z.boolean() }).optional(),
});
export type SavedChain = z.infer<typeof SavedChain>;
export const SavedBook = z.record(z.string(), z.unknown());

/**
 * Where the book keeps its chains while the browser runs (chrome.storage.session in the extension:
 * memory only, gone with the browser, unreadable by content scripts). `load` gives what the last
 * `save` wrote, unread: the book validates it.
 */
export interface ContinuationStore {
  load(): Promise<unknown>;
  save(chains: Record<string, SavedChain>): Promise<void>;
}
