import { Validator, type Schema } from '@cfworker/json-schema';

export interface InputIssue {
  path: string;
  message: string;
}

/**
 * Checks a tool input against the tool's own JSON Schema. @cfworker/json-schema interprets the
 * schema without eval/new Function, which MV3's extension CSP forbids.
 */
export function validateToolInput(schema: Record<string, unknown>, input: unknown): { valid: true } | { valid: false; issues: InputIssue[] } {
  let result: ReturnType<Validator['validate']>;
  try {
    // A page's schema can be hostile (dangling $ref, absurd nesting): the library throws then.
    result = new Validator(schema as Schema, '2020-12', false).validate(input);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { valid: false, issues: [{ path: '', message: `the tool's schema cannot be used: ${reason}` }] };
  }
  if (result.valid) return { valid: true };
  // The library reports the failing leaf plus every enclosing keyword; keep the leaves.
  const issues = result.errors
    .filter((e) => !['properties', 'allOf', 'anyOf', 'oneOf', '$ref', 'items', 'prefixItems'].includes(e.keyword))
    .map((e) => ({ path: e.instanceLocation.replace(/^#\/?/, '').replace(/\//g, '.'), message: e.error }));
  return { valid: false, issues: issues.length ? issues : result.errors.map((e) => ({ path: e.instanceLocation, message: e.error })) };
}
