import { z } from 'zod';
import { SnakeCase } from './primitives.ts';
import { StateName } from './resource.ts';

/**
 * (A wire shape since agents send it with `agent/submit`; src/pipeline/expectation.ts re-exports it.)
 * The effect that confirms an action on the paths where the site does not confirm it (adapter,
 * DOM, WebMCP around the tool): a resulting state, an element that appears, a fact's new
 * value, or the page that should be shown. Every part given must be observed.
 */
export const ExpectedEffect = z
  .object({
    state: StateName.optional(),
    /** An element whose accessible name contains `name` (case-insensitive), optionally with this role. */
    element: z.object({ role: z.string().min(1).max(64).optional(), name: z.string().min(1).max(1024) }).optional(),
    fact: z.object({ name: SnakeCase, value: z.union([z.string().max(4096), z.number(), z.boolean(), z.null()]) }).optional(),
    /** The URL shown afterwards (compared without the fragment). */
    url: z.string().max(8192).optional(),
  })
  .refine((e) => e.state !== undefined || e.element !== undefined || e.fact !== undefined || e.url !== undefined, {
    message: 'must name at least one observable effect: state, element, fact or url',
  });
export type ExpectedEffect = z.infer<typeof ExpectedEffect>;
