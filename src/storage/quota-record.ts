import { z } from 'zod';
import { AgentId } from '../protocol/primitives.ts';

/** One agent's rate-limit and quota counters, as the limiter keeps them in memory. */
export interface AgentUsage {
  /** Sliding log of the last minute's action times. */
  recent: number[];
  day_start: number;
  day_count: number;
}

/** One agent's rate-limit and quota counters, as stored (validated when read back). */
export const QuotaRecord = z.object({
  agent_id: AgentId,
  recent: z.array(z.number().finite()).max(100_000),
  day_start: z.number().finite(),
  day_count: z.number().int().nonnegative(),
});
export type QuotaRecord = z.infer<typeof QuotaRecord>;
