import { z } from 'zod';
import { Step } from '../../agent/step-schema.ts';
import { ActionRequest } from '../../protocol/action.ts';
import { CopilotRun, ModelProvider } from '../../protocol/copilot.ts';
import type { HistoryEntry } from '../../agent/prompt.ts';

/**
 * What the worker remembers of a run (chrome.storage.session: memory only, unreadable by content
 * scripts), enough to resume it after the worker is killed: the run as the panel sees it, the
 * token's secret (never pushed, never logged), the model settings it started with (not the key:
 * that is read from the key store when the run resumes), the loop's history, and the request whose
 * result was unknown when the worker stopped. Everything is validated when read back.
 */

const HistoryEntrySchema = z.object({
  n: z.number().int().positive(),
  state: z.string().max(1000),
  step: Step.optional(),
  outcome: z.string().max(20_000).optional(),
  untrusted: z.boolean().optional(),
  evidence: z.string().max(4000).optional(),
});

export const RunModelSettings = z.object({
  provider: ModelProvider,
  endpoint: z.string().max(2000),
  model: z.string().max(200),
});
export type RunModelSettings = z.infer<typeof RunModelSettings>;

export const RunRecord = z.object({
  run: CopilotRun,
  secret: z.string().min(1).max(500),
  model: RunModelSettings,
  history: z.array(HistoryEntrySchema).max(200),
  /** Submitted but its result not yet seen: resubmitted with the same idempotency key on resume (a replay, never a repeat). */
  inflight: ActionRequest.optional(),
  /** Tokens and time spent before the loop last (re)started: the loop counts from zero each time. */
  spent: z.object({ tokens: z.number().int().nonnegative(), elapsed_ms: z.number().int().nonnegative() }),
});
export type RunRecord = z.infer<typeof RunRecord>;

/** The history as the loop takes it (the schema's shape is the loop's HistoryEntry). */
export const asHistory = (record: RunRecord): HistoryEntry[] => record.history;
