import { z } from 'zod';
import { Step } from './step-schema.ts';

/**
 * What the loop remembers of a past step, as the worker keeps it across a restart: its observation
 * is kept only as the state summary. Validated when a run resumes from memory.
 */
export const HistoryEntry = z.object({
  n: z.number().int().positive(),
  /** `order ORD-1 · shipped @ fp-…`: the state the step was decided on. */
  state: z.string().max(1000),
  /** Missing when the model's reply was invalid even after the retry. */
  step: Step.optional(),
  /** The pipeline's answer (or the error, or what a read found), secrets redacted; untrusted. */
  outcome: z.string().max(20_000).optional(),
  /** The outcome came from a tool marked `untrusted_content`: shown to the model encoded. */
  untrusted: z.boolean().optional(),
  /** The objective evidence this step produced (a confirmed/accepted consequential action). */
  evidence: z.string().max(2000).optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;
