import { readFileSync } from 'node:fs';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';
import { describe, expect, it } from 'vitest';
import { inputFromForm, schemaFields } from '../../../src/sidepanel/lib/schema-fields.ts';

/** The Vietnamese catalogue, as Chrome in Vietnamese gives it (the setup installs English before each test). */
const vietnamese = () => useMessageSource(catalogueSource(JSON.parse(readFileSync(new URL('../../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Catalogue, 'vi'));

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

  it('names the field in a Vietnamese sentence in a Vietnamese browser', () => {
    vietnamese();
    expect(inputFromForm(fields, { n: 'abc' })).toEqual({ error: 'n phải là một số' });
    expect(inputFromForm(fields, { tags: '[' })).toEqual({ error: 'tags phải là JSON (array)' });
  });
});
