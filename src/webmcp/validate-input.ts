import { Validator, type Schema } from '@cfworker/json-schema';
import { checkSchemaSafety } from './schema-safety.ts';

interface InputIssue {
  path: string;
  message: string;
}

export type InputCheck =
  | { valid: true }
  | { valid: false; issues: InputIssue[] }
  /** The schema itself is refused (INVALID_TOOL_SCHEMA): nothing was evaluated. */
  | { valid: false; schemaProblem: string; issues: InputIssue[] };

/**
 * Worst-case regex work one validation may do: the sum, over the input's strings and keys, of
 * length^exponent for each of the schema's patterns (safe-pattern.ts bounds the exponent). About
 * tens of milliseconds at most on the service worker's thread.
 */
const MAX_PATTERN_WORK = 20_000_000;

/** Σ length^exponent over every string and key in the input (each may meet every pattern). */
function patternWork(input: unknown, exponent: number): number {
  let work = 0;
  const stack: unknown[] = [input];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') work += Math.pow(v.length, exponent);
    else if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null) {
      for (const [key, value] of Object.entries(v)) {
        work += Math.pow(key.length, exponent);
        stack.push(value);
      }
    }
  }
  return work;
}

/**
 * Checks a tool input against the tool's own JSON Schema. @cfworker/json-schema interprets the
 * schema without eval/new Function, which MV3's extension CSP forbids. A page's schema is judged
 * first (schema-safety.ts): one that could freeze the worker is never handed to the library.
 */
export function validateToolInput(schema: Record<string, unknown>, input: unknown): InputCheck {
  const safety = checkSchemaSafety(schema);
  if (!safety.ok) return { valid: false, schemaProblem: safety.reason, issues: [{ path: '', message: `the tool's schema is refused: ${safety.reason}` }] };
  if (safety.patterns > 0) {
    const work = safety.patterns * patternWork(input, safety.exponent);
    if (work > MAX_PATTERN_WORK) {
      return { valid: false, issues: [{ path: '', message: `the input's strings are too long for this tool's ${safety.patterns} pattern(s); send shorter values` }] };
    }
  }
  let result: ReturnType<Validator['validate']>;
  try {
    // A page's schema can be hostile (dangling $ref, absurd nesting): the library throws then.
    result = new Validator(schema as Schema, '2020-12', false).validate(input);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { valid: false, schemaProblem: `the schema cannot be used: ${reason}`, issues: [{ path: '', message: `the tool's schema cannot be used: ${reason}` }] };
  }
  if (result.valid) return { valid: true };
  // The library reports the failing leaf plus every enclosing keyword; keep the leaves.
  const issues = result.errors
    .filter((e) => !['properties', 'allOf', 'anyOf', 'oneOf', '$ref', 'items', 'prefixItems'].includes(e.keyword))
    .map((e) => ({ path: e.instanceLocation.replace(/^#\/?/, '').replace(/\//g, '.'), message: e.error }));
  return { valid: false, issues: issues.length ? issues : result.errors.map((e) => ({ path: e.instanceLocation, message: e.error })) };
}
