import { expect } from 'vitest';
import type { z } from 'zod';
import { isErrorResult, type ActionResult } from '../../../src/protocol/results.ts';
import { parseOrError } from '../../../src/protocol/validate.ts';
import examples from '../../fixtures/design-examples.json' with { type: 'json' };

/** A fresh deep copy of a DESIGN.md example, safe to mutate (loosely typed: tests break it on purpose). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function example<K extends Exclude<keyof typeof examples, '_note'>>(name: K): any {
  return structuredClone(examples[name]);
}

/** Asserts that `value` is accepted and returns the parsed output. */
export function accepts<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = parseOrError(schema, value);
  if (!r.ok) throw new Error(`expected the value to parse, got: ${r.error.message}`);
  return r.value;
}

/** Asserts rejection with an issue at exactly `path` whose message matches `message`. */
export function rejects(schema: z.ZodType, value: unknown, path: string, message: RegExp) {
  const r = parseOrError(schema, value);
  expect(r.ok, `expected a rejection at ${path}`).toBe(false);
  if (r.ok) return;
  const at = r.error.issues.filter((i) => i.path === path);
  expect(at, `no issue at "${path}"; issues: ${JSON.stringify(r.error.issues)}`).not.toHaveLength(0);
  expect(at.map((i) => i.message).join(' | ')).toMatch(message);
  return r.error;
}

/** The only condition under which an agent may say "done" without qualification: confirmed, with certainty. */
export function isConfirmedDone(r: ActionResult): boolean {
  return !isErrorResult(r) && r.execution.status === 'confirmed' && r.execution.certainty === 'confirmed';
}
