import { describe, expect, it } from 'vitest';
import { acceptedTypedValue, nextTypedValue, TYPED_INPUT_TYPES } from '../../../../src/content/act/typed-value.ts';

describe('what dom.type writes into an input', () => {
  it('types into colour and range inputs as well as text fields, never into checkboxes, files or hidden fields', () => {
    for (const t of ['text', '', 'number', 'date', 'color', 'range']) expect(TYPED_INPUT_TYPES.has(t), t).toBe(true);
    for (const t of ['checkbox', 'radio', 'file', 'hidden', 'submit', 'button']) expect(TYPED_INPUT_TYPES.has(t), t).toBe(false);
  });

  it('appends to a text field unless told to clear it', () => {
    expect(nextTypedValue('text', 'Lis', 'bon', false)).toBe('Lisbon');
    expect(nextTypedValue('text', 'Lis', 'bon', true)).toBe('bon');
  });

  it('always replaces the whole value of a colour, range or date input (appending would make it malformed)', () => {
    expect(nextTypedValue('color', '#000000', '#1e90ff', false)).toBe('#1e90ff');
    expect(nextTypedValue('range', '50', '70', false)).toBe('70');
    expect(nextTypedValue('date', '2026-01-01', '2026-12-24', false)).toBe('2026-12-24');
  });

  it('takes a colour kept in lower case as accepted, and a colour the input turned to black as not', () => {
    expect(acceptedTypedValue('color', '#1E90FF', '#1e90ff')).toBe(true);
    expect(acceptedTypedValue('color', 'dodgerblue', '#000000')).toBe(false);
  });

  it('takes a range value kept in its own number form as accepted, a clamped or rounded one as not', () => {
    expect(acceptedTypedValue('range', '70', '70')).toBe(true);
    expect(acceptedTypedValue('range', '70.0', '70')).toBe(true);
    expect(acceptedTypedValue('range', '170', '100')).toBe(false);
    expect(acceptedTypedValue('range', '', '50')).toBe(false);
  });

  it('needs anything else kept exactly (a number field that dropped letters did not accept them)', () => {
    expect(acceptedTypedValue('number', '3', '3')).toBe(true);
    expect(acceptedTypedValue('number', '3x', '')).toBe(false);
    expect(acceptedTypedValue('text', 'A', 'a')).toBe(false);
  });
});
