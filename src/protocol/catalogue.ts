import { z } from 'zod';

/**
 * A messages.json file (public/_locales/<lang>/), Chrome's own format, as Steward reads it when it
 * must read one itself (src/base/catalogue-fallback.ts): checked like any other input.
 */
export const CatalogueFile = z.record(
  z.string().regex(/^[A-Za-z0-9_@]+$/),
  z.object({
    message: z.string(),
    description: z.string().optional(),
    placeholders: z.record(z.string(), z.object({ content: z.string(), example: z.string().optional() })).optional(),
  }),
);

/** A packaged catalogue at `url` (the extension's own `_locales/<folder>/messages.json`), checked; undefined when there is none. */
export async function readCatalogueAt(url: string): Promise<CatalogueFile | undefined> {
  const response = await fetch(url);
  return response.ok ? CatalogueFile.parse(await response.json()) : undefined;
}
export type CatalogueFile = z.infer<typeof CatalogueFile>;
