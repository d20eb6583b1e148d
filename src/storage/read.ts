import type { z } from 'zod';

/** A stored record no longer matches its schema: edited by hand, corrupted, or from a future version. */
export class CorruptRecordError extends Error {
  constructor(
    readonly store: string,
    readonly key: unknown,
    readonly problem: string,
  ) {
    super(`Corrupt record in ${store} (${JSON.stringify(key)}): ${problem}`);
    this.name = 'CorruptRecordError';
  }
}

/** Validates a value read from IndexedDB; a record that fails is never trusted. */
export function readValid<S extends z.ZodType>(schema: S, value: unknown, store: string, key: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  throw new CorruptRecordError(store, key, first ? `${first.path.join('.') || '(root)'}: ${first.message}` : 'invalid');
}
