import { describe, expect, it } from 'vitest';
import { validateToolInput } from '../../../src/webmcp/validate-input.ts';

const schema = {
  type: 'object',
  properties: { doctor: { type: 'string', enum: ['dr-ada', 'dr-lin'] }, date: { type: 'string', format: 'date' }, n: { type: 'integer' } },
  required: ['doctor', 'date'],
};

describe('validateToolInput', () => {
  it('accepts input that matches the schema', () => {
    expect(validateToolInput(schema, { doctor: 'dr-ada', date: '2026-12-01' })).toEqual({ valid: true });
  });

  it('names the missing required field', () => {
    const result = validateToolInput(schema, { doctor: 'dr-ada' });
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.issues.map((i) => i.message).join(' ')).toContain('date');
  });

  it('points at the field with the wrong value', () => {
    const result = validateToolInput(schema, { doctor: 'dr-who', date: '2026-12-01', n: 1.5 });
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.issues.map((i) => i.path).sort()).toEqual(['doctor', 'n']);
  });

  it('reports a schema it cannot use instead of throwing', () => {
    const result = validateToolInput({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, { a: 1 });
    expect(result.valid).toBe(false);
  });
});
