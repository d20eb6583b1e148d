import { z } from 'zod';

/**
 * A messages.json file (public/_locales/<lang>/), Chrome's own format, as Steward reads it when it
 * must read one itself (src/sidepanel/catalogue-fallback.ts): checked like any other input.
 */
export const CatalogueFile = z.record(
  z.string().regex(/^[A-Za-z0-9_@]+$/),
  z.object({
    message: z.string(),
    description: z.string().optional(),
    placeholders: z.record(z.string(), z.object({ content: z.string(), example: z.string().optional() })).optional(),
  }),
);
