import type { z } from 'zod';
import { makeError, type ErrorIssue, type StewardError } from './errors.ts';

/**
 * Turning zod failures into Steward's machine-readable INVALID_INPUT / INVALID_MESSAGE errors,
 * with paths a person can read (`preconditions.state_version`, `facts[0].sources[1]`).
 */

type InvalidCode = 'INVALID_INPUT' | 'INVALID_MESSAGE';
export type ValidationError = StewardError & { code: InvalidCode; issues: ErrorIssue[] };
export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; error: ValidationError };

export interface ParseOptions {
  /** INVALID_INPUT (default) for agent input, INVALID_MESSAGE for messages between contexts. */
  code?: InvalidCode;
  /** Names the thing being parsed in the summary message, e.g. "action request". */
  what?: string;
  /** Caps the issue list so a hostile value cannot produce a huge error (default 20). */
  maxIssues?: number;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `['preconditions', 'state_version']` → `preconditions.state_version`; `['a', 0, 'b c']` → `a[0]["b c"]`. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && IDENTIFIER.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

type RawIssue = z.core.$ZodIssue;

/**
 * A failed union reports every branch. Show the branch that came closest (fewest issues, then
 * deepest), unless all branches failed at the union itself: then its own message is clearer.
 */
function flatten(issue: RawIssue, prefix: readonly PropertyKey[]): { path: PropertyKey[]; issue: RawIssue }[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const depth = (branch: readonly RawIssue[]) => Math.max(...branch.map((i) => i.path.length));
    const best = [...issue.errors].sort((a, b) => a.length - b.length || depth(b) - depth(a))[0];
    if (best && best.length > 0 && depth(best) > 0) return best.flatMap((i) => flatten(i, path));
  }
  return [{ path, issue }];
}

/** Issue text for people; call parse with `reportInput: true` so missing fields read "is required". */
export function describeIssue(issue: RawIssue): string {
  // With reportInput, a missing field shows up as an invalid_type issue whose input is undefined.
  const missing = 'input' in issue && issue.input === undefined;
  if (missing && issue.code === 'invalid_type') return `is required (expected ${issue.expected})`;
  if (missing && (issue.code === 'invalid_union' || issue.code === 'invalid_value')) return `is required: ${issue.message}`;
  return issue.message;
}

/** Parses `value` with `schema`; on failure returns a complete Steward error instead of throwing. */
export function parseOrError<S extends z.ZodType>(schema: S, value: unknown, options: ParseOptions = {}): ParseOutcome<z.output<S>> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };

  const code = options.code ?? 'INVALID_INPUT';
  const max = options.maxIssues ?? 20;
  const all = result.error.issues.flatMap((i) => flatten(i, []));
  // Bounded: keys and messages can come from a hostile page (invariant 7).
  const issues: ErrorIssue[] = all.slice(0, max).map(({ path, issue }) => ({ path: clip(formatPath(path), 1024), message: clip(describeIssue(issue), 1024) }));
  const first = issues[0];
  const what = options.what ?? (code === 'INVALID_MESSAGE' ? 'message' : 'input');
  const more = all.length > 1 ? ` (and ${all.length - 1} more issue${all.length > 2 ? 's' : ''})` : '';
  const summary = clip(first ? `Invalid ${what}: ${first.path || '(root)'}: ${first.message}${more}` : `Invalid ${what}`, 4096);
  const error = makeError(code, summary, { issues }) as ValidationError;
  return { ok: false, error };
}
