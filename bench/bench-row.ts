import { z } from 'zod';

/** One row of `bench-results.json` (DESIGN §10). */
export const BenchRow = z
  .object({
    /** Dotted metric name, e.g. `observe.full_ms`. */
    metric: z.string().regex(/^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+$/, 'must be a dotted metric name, e.g. observe.full_ms'),
    case: z.string().min(1).max(128),
    value: z.number().finite(),
    unit: z.string().min(1).max(32),
    better: z.enum(['lower', 'higher']),
    /** The comparison measured in the same run, on the same page, in the same browser. */
    anchor: z.string().min(1).max(128).optional(),
    anchor_value: z.number().finite().optional(),
    /** What the value counts, when the name alone does not say it. */
    note: z.string().min(1).max(600).optional(),
  })
  .refine((r) => (r.anchor === undefined) === (r.anchor_value === undefined), {
    path: ['anchor_value'],
    message: 'anchor and anchor_value go together',
  });
export type BenchRow = z.infer<typeof BenchRow>;
