import { z } from 'zod';
import { navigationProblem } from './navigation-url.ts';
import { findForbiddenKey } from './forbidden-keys.ts';

/**
 * Small building blocks shared by every protocol shape. Each carries its own error message so a
 * rejected value says what was expected, not just "invalid".
 */

/** ISO 8601 date-time with `Z` or an explicit offset, e.g. `2026-08-03T11:40:00Z`. */
export const IsoDateTime = z.iso.datetime({
  offset: true,
  error: 'must be an ISO 8601 date-time such as 2026-08-03T11:40:00Z',
});
export type IsoDateTime = z.infer<typeof IsoDateTime>;

/** Lower snake_case word, e.g. `awaiting_payment`, `canvas_total_not_observed`. */
export const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
export const SnakeCase = z.string().max(128, 'must be at most 128 characters').regex(SNAKE_CASE, 'must be lower snake_case, e.g. awaiting_payment');

/** A probability-like score in [0, 1]. */
export const Confidence = z.number({ error: 'must be a number between 0 and 1' }).min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

/** Lower-case hex SHA-256 digest (64 characters), used by the audit chain. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 digest: 64 lower-case hex characters');
export type Sha256Hex = z.infer<typeof Sha256Hex>;

/** Hash of an action's canonical input: `sha256:` + 64 lower-case hex characters. */
export const InputHash = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be "sha256:" followed by 64 lower-case hex characters');
export type InputHash = z.infer<typeof InputHash>;

/** An http(s) URL. `URL` is a web-platform global (service worker, content script, Node). */
export const HttpUrl = z
  .string()
  .max(8192, 'must be at most 8192 characters')
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

/** A URL an agent may send the browser to: http(s), with no user name or password in it. */
export const NavigableUrl = z
  .string()
  .max(8192, 'must be at most 8192 characters')
  .superRefine((s, ctx) => {
    const problem = navigationProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.message, params: { reason: problem.problem } });
  });

/** A serialized web origin (`scheme://host[:port]`, no path, no trailing slash). */
export const Origin = z.string().refine((s) => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === s;
  } catch {
    return false;
  }
}, 'must be an http(s) origin such as http://localhost:4100 (no path, no trailing slash)');
export type Origin = z.infer<typeof Origin>;

/** A path on the site (`/agent/v1/actions/act_8f31`) or an absolute http(s) URL. */
export const UrlOrPath = z
  .string()
  .max(8192, 'must be at most 8192 characters')
  .refine((s) => (s.startsWith('/') && !s.startsWith('//') && !/\s/.test(s)) || HttpUrl.safeParse(s).success, 'must be a site path starting with "/" or an absolute http(s) URL');

/** Opaque identifier token: letters, digits and `_ . : -`, no whitespace. */
const ID_BODY = '[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}';

/** Agent identity, e.g. `agent:copilot`, `agent:mcp-ide-1`. */
export const AgentId = z.string().regex(new RegExp(`^agent:${ID_BODY}$`), 'must look like agent:<name>, e.g. agent:copilot');
export type AgentId = z.infer<typeof AgentId>;

/** The human on whose behalf agents act, e.g. `user:local`, `user:123`. */
export const UserId = z.string().regex(new RegExp(`^user:${ID_BODY}$`), 'must look like user:<id>, e.g. user:local');
export type UserId = z.infer<typeof UserId>;

/** Builds an id schema with a fixed prefix, e.g. `tok_…`, `approval_…`. */
export function prefixedId(prefix: string, example: string) {
  return z.string().regex(new RegExp(`^${prefix}[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`), `must look like ${prefix}<id>, e.g. ${example}`);
}

/** Free text meant for people (messages, hints); bounded so a hostile page cannot bloat it. */
export const HumanText = z.string().min(1, 'must not be empty').max(4096, 'must be at most 4096 characters');

/** True when `later` is strictly after `earlier` (both already validated as ISO date-times). */
export function isAfter(later: string, earlier: string): boolean {
  return Date.parse(later) > Date.parse(earlier);
}

/** Indices of repeated values, for "no duplicates" refinements. */
export function duplicateIndices<T>(items: readonly T[]): number[] {
  const seen = new Set<T>();
  const dups: number[] = [];
  items.forEach((item, i) => {
    if (seen.has(item)) dups.push(i);
    seen.add(item);
  });
  return dups;
}

/** Upper bound for an action's input / a memory payload once serialized (invariant 7: bad input gets a clear error). */
const MAX_JSON_BYTES = 256 * 1024;

/** Serialized length in UTF-16 units, or -1 when the value is not JSON-serializable (cycles, BigInt). */
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? -1;
  } catch {
    return -1;
  }
}

/**
 * A plain JSON object (action input, payloads), bounded in size. Keys that reach a prototype
 * (`__proto__`, `constructor`, `prototype`) are refused at any depth, naming the path, before the
 * record would silently drop `__proto__`.
 */
export const JsonObject = z
  .unknown()
  .superRefine((value, ctx) => {
    const at = findForbiddenKey(value);
    if (at) ctx.addIssue({ code: 'custom', path: at, message: `"${String(at[at.length - 1])}" is not accepted as a key`, abort: true });
  })
  .pipe(z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }))
  .superRefine((value, ctx) => {
    const size = jsonLength(value);
    if (size < 0) ctx.addIssue({ code: 'custom', message: 'must be JSON-serializable (no cycles, no BigInt)' });
    else if (size > MAX_JSON_BYTES) ctx.addIssue({ code: 'custom', message: `is too large: ${size} characters when serialized, limit ${MAX_JSON_BYTES}` });
  });
export type JsonObject = z.infer<typeof JsonObject>;
