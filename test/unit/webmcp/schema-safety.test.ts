import { describe, expect, it } from 'vitest';
import { checkSchemaSafety } from '../../../src/webmcp/schema-safety.ts';
import { normalizeTools } from '../../../src/webmcp/normalize.ts';
import { validateToolInput } from '../../../src/webmcp/validate-input.ts';

/** Documented limits of the module under test, written out so a change to them fails here. */
const MAX_EXPANDED_NODES = 5_000;
const MAX_SCHEMA_DEPTH = 32;
const MAX_SCHEMA_PATTERNS = 32;

const CATASTROPHIC = '^(a+)+$';
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

describe('checkSchemaSafety: every place a schema runs a regular expression', () => {
  it.each([
    ['pattern', obj({ code: { type: 'string', pattern: CATASTROPHIC } })],
    ['pattern deep in anyOf / items', obj({ list: { type: 'array', items: { anyOf: [{ type: 'number' }, { type: 'string', pattern: CATASTROPHIC }] } } })],
    ['patternProperties keys', obj({}, { patternProperties: { [CATASTROPHIC]: { type: 'string' } } })],
    ['propertyNames', obj({}, { propertyNames: { pattern: CATASTROPHIC } })],
    ['a pattern reached only through $ref', obj({ a: { $ref: '#/$defs/code' } }, { $defs: { code: { type: 'string', pattern: CATASTROPHIC } } })],
    ['not / if / then', obj({}, { if: { properties: { a: { not: { pattern: CATASTROPHIC } } } } })],
  ])('refuses a catastrophic %s', (_where, schema) => {
    const verdict = checkSchemaSafety(schema);
    expect(verdict).toMatchObject({ ok: false, reason: expect.stringContaining('exponential') });
  });

  it('ignores patterns that are data (enum, const, default, examples)', () => {
    expect(checkSchemaSafety(obj({ a: { enum: [{ pattern: CATASTROPHIC }], default: { pattern: CATASTROPHIC } } }))).toMatchObject({ ok: true, patterns: 0 });
  });

  it('refuses too many patterns, too deep nesting, $ref cycles, remote refs and $ref explosions', () => {
    const many = obj(Object.fromEntries(Array.from({ length: MAX_SCHEMA_PATTERNS + 1 }, (_, i) => [`f${i}`, { type: 'string', pattern: '^a$' }])));
    expect(checkSchemaSafety(many)).toMatchObject({ ok: false, reason: expect.stringContaining(`more than ${MAX_SCHEMA_PATTERNS} patterns`) });
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < MAX_SCHEMA_DEPTH; i++) deep = { items: deep };
    expect(checkSchemaSafety(obj({ d: deep }))).toMatchObject({ ok: false, reason: expect.stringContaining('nested deeper') });
    expect(checkSchemaSafety(obj({ a: { $ref: '#' } }))).toMatchObject({ ok: false, reason: expect.stringContaining('cycle') });
    expect(checkSchemaSafety(obj({ a: { $ref: 'https://evil.example/s.json' } }))).toMatchObject({ ok: false, reason: expect.stringContaining('local') });
    // Each level refers twice to the next: 2^20 schema nodes to visit from a 1 KB schema.
    const defs: Record<string, unknown> = { d20: { type: 'string' } };
    for (let i = 0; i < 20; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    expect(checkSchemaSafety(obj({ a: { $ref: '#/$defs/d0' } }, { $defs: defs }))).toMatchObject({ ok: false, reason: expect.stringContaining(`more than ${MAX_EXPANDED_NODES} nodes`) });
  });

  it('refuses property names no input may carry', () => {
    expect(checkSchemaSafety(obj({ __proto__: { type: 'string' } } as Record<string, unknown>))).toMatchObject({ ok: true }); // a literal here sets the prototype, not a key
    expect(checkSchemaSafety(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'))).toMatchObject({ ok: false, reason: expect.stringContaining('"__proto__"') });
    expect(checkSchemaSafety(obj({}, { required: ['constructor'] }))).toMatchObject({ ok: false, reason: expect.stringContaining('"constructor"') });
  });

  it('accepts the demo sites’ kind of schema', () => {
    const schema = obj(
      { doctor: { type: 'string', enum: ['dr-ada'] }, date: { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, id: { $ref: '#/$defs/id' } },
      { $defs: { id: { type: 'string', pattern: '^APT-\\d+$' } } },
    );
    expect(checkSchemaSafety(schema)).toEqual({ ok: true, patterns: 2, exponent: 1 });
  });
});

describe('a page schema with a catastrophic pattern', () => {
  const raw = { name: 'lookup', description: 'x', inputSchema: obj({ code: { type: 'string', pattern: CATASTROPHIC } }) };

  it('is listed as a tool that cannot run, with the reason', () => {
    const [tool] = normalizeTools([raw], () => undefined);
    expect(tool?.schemaError).toContain('^(a+)+$');
    expect(tool?.inputSchema).toEqual({ type: 'object', properties: {} });
  });

  it('is never evaluated: validateToolInput refuses the schema (this input would take minutes)', () => {
    const check = validateToolInput(raw.inputSchema, { code: `${'a'.repeat(40)}!` });
    expect(check).toMatchObject({ valid: false, schemaProblem: expect.stringContaining('exponential') });
  });

  it('bounds the work of accepted patterns by the input: long strings are refused before any regex runs', () => {
    const quadratic = obj({ s: { type: 'string', pattern: '[a-z]+x' } });
    expect(validateToolInput(quadratic, { s: 'a'.repeat(1000) })).toEqual({ valid: false, issues: [{ path: 's', message: 'String does not match pattern.' }] });
    const long = validateToolInput(quadratic, { s: 'a'.repeat(200_000) });
    expect(long).toMatchObject({ valid: false, issues: [{ message: expect.stringContaining('too long for this tool') }] });
    expect('schemaProblem' in long).toBe(false);
  });
});
