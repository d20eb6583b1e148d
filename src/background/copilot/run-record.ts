import { z } from 'zod';
import { HistoryEntry } from '../../agent/history.ts';
import { ActionRequest } from '../../protocol/action.ts';
import { CopilotRun, ModelProvider } from '../../protocol/copilot.ts';

/**
 * What the worker remembers of a run (chrome.storage.session: memory only, unreadable by content
 * scripts), enough to resume it after the worker is killed: the run as the panel sees it, the
 * token's secret (never pushed, never logged), the model settings it started with (not the key:
 * that is read from the key store when the run resumes), the loop's history, and the request whose
 * result was unknown when the worker stopped. Everything is validated when read back.
 */

const RunModelSettings = z.object({
  provider: ModelProvider,
  endpoint: z.string().max(2000),
  model: z.string().max(200),
});

export const RunRecord = z.object({
  run: CopilotRun,
  secret: z.string().min(1).max(500),
  model: RunModelSettings,
  history: z.array(HistoryEntry).max(200),
  /** Submitted but its result not yet seen: resubmitted with the same idempotency key on resume (a replay, never a repeat). */
  inflight: ActionRequest.optional(),
  /** Tokens and time spent before the loop last (re)started: the loop counts from zero each time. */
  spent: z.object({ tokens: z.number().int().nonnegative(), elapsed_ms: z.number().int().nonnegative() }),
});
export type RunRecord = z.infer<typeof RunRecord>;
