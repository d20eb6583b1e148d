import { describe, expect, it } from 'vitest';
import { inputFromForm, schemaFields } from '../../../src/sidepanel/lib/schema-fields.ts';

describe('schemaFields', () => {
  it('reads names, types, required flags, descriptions and options (enum or anyOf consts)', () => {
    const fields = schemaFields({
      type: 'object',
      properties: {
        date: { type: 'string', format: 'date', description: 'Day' },
        doctor: { type: 'string', anyOf: [{ const: 'a' }, { const: 'b' }] },
        count: { type: ['integer', 'null'] },
      },
      required: ['date'],
    });
    expect(fields).toEqual([
      { name: 'date', type: 'string', required: true, description: 'Day', format: 'date' },
      { name: 'doctor', type: 'string', required: false, options: ['a', 'b'] },
      { name: 'count', type: 'integer', required: false },
    ]);
  });
});

describe('inputFromForm', () => {
  const fields = schemaFields({
    type: 'object',
    properties: { q: { type: 'string' }, n: { type: 'number' }, on: { type: 'boolean' }, tags: { type: 'array' } },
  });

  it('converts typed values and leaves empty optional fields out', () => {
    expect(inputFromForm(fields, { q: 'hi', n: '2.5', on: 'false', tags: '["a"]' })).toEqual({ input: { q: 'hi', n: 2.5, on: false, tags: ['a'] } });
    expect(inputFromForm(fields, { q: '' })).toEqual({ input: {} });
  });

  it('names the field that could not be converted', () => {
    expect(inputFromForm(fields, { n: 'abc' })).toEqual({ error: 'n must be a number' });
    expect(inputFromForm(fields, { tags: '[' })).toEqual({ error: 'tags must be JSON (array)' });
  });
});
