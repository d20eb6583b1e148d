import { z } from 'zod';

/**
 * What a page's WebMCP tool said when it failed: the code and message it threw (or reported with
 * `isError`), bounded. It is the page's text — data, never instructions — wherever it flows: the
 * content channel, an ActionResult's error details, the side panel.
 */
export const PAGE_ERROR_MESSAGE_MAX = 500;
export const PAGE_ERROR_CODE_MAX = 64;

export const PageToolError = z.object({
  /** Upper snake case, from the thrown value's `code` or its error name (`RangeError` → `RANGE_ERROR`). */
  code: z
    .string()
    .max(PAGE_ERROR_CODE_MAX)
    .regex(/^[A-Z0-9][A-Z0-9_]*$/)
    .optional(),
  /** At most PAGE_ERROR_MESSAGE_MAX characters (plus an ellipsis when cut). */
  message: z.string().max(PAGE_ERROR_MESSAGE_MAX + 1),
  /** The page's message was longer and was cut. */
  truncated: z.boolean(),
  /** Always true: marks the text as the page's words wherever it is shown. */
  untrusted: z.literal(true),
});
export type PageToolError = z.infer<typeof PageToolError>;

/** Where the page's error travels inside an error's `details` (ToolRunOutcome and ActionResult alike). */
export const PageErrorDetails = z.object({
  page_error: PageToolError.optional(),
  /** How the run ended once Steward re-observed: nothing changed (`failed`), or it cannot tell (`unknown`). */
  status: z.enum(['failed', 'unknown']).optional(),
  action_id: z.string().max(128).optional(),
});
export type PageErrorDetails = z.infer<typeof PageErrorDetails>;

/** "The page's tool did not answer within 1.5 s": the one wording for a tool that never returned, whoever gave up first. */
export function toolTimeoutMessage(ms: number): string {
  const seconds = Math.round(ms / 100) / 10;
  return `The page's tool did not answer within ${seconds} s; it may still be running.`;
}
