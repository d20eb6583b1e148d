/** Reading an agent's JSON body with a schema: every failure is a 400 INVALID_INPUT with its issues. */
import type { z } from 'zod';
import { SiteRefusal } from './errors.ts';

export function issuesOf(error: z.ZodError, prefix = ''): { path: string; message: string }[] {
  return error.issues.slice(0, 100).map((i) => ({ path: [prefix, ...i.path.map(String)].filter(Boolean).join('.') || '(body)', message: i.message }));
}

export function parseJsonBody<S extends z.ZodType>(raw: Buffer, schema: S, what: string): z.output<S> {
  let value: unknown;
  try {
    value = raw.length === 0 ? undefined : (JSON.parse(raw.toString('utf8')) as unknown);
  } catch {
    throw new SiteRefusal('INVALID_INPUT', `The ${what} body is not valid JSON.`, { issues: [{ path: '(body)', message: 'must be JSON' }] });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SiteRefusal('INVALID_INPUT', `The ${what} body is invalid.`, { issues: issuesOf(parsed.error) });
  return parsed.data;
}
