import { describe, expect, it } from 'vitest';
import { ago, clockTime, countdown, msLeft, startOfDay } from '../../../src/sidepanel/lib/time.ts';
import { currentValues, inputRows, showValue } from '../../../src/sidepanel/lib/values.ts';

describe('countdown', () => {
  it('shows minutes and seconds, then hours, then days, and never goes below zero', () => {
    expect(countdown(65_000)).toBe('1:05');
    expect(countdown(999)).toBe('0:00');
    expect(countdown(2 * 3600_000 + 10 * 60_000)).toBe('2 h 10 min');
    expect(countdown(3 * 86_400_000)).toBe('3 days');
    expect(msLeft('2026-08-03T11:40:00Z', Date.parse('2026-08-03T11:41:00Z'))).toBe(0);
    expect(msLeft('2026-08-03T11:40:00Z', Date.parse('2026-08-03T11:39:00Z'))).toBe(60_000);
  });

  it('says how old an observation is', () => {
    const t = Date.parse('2026-08-03T11:40:00Z');
    expect(ago('2026-08-03T11:40:00Z', t + 2000)).toBe('just now');
    expect(ago('2026-08-03T11:40:00Z', t + 42_000)).toBe('42 s ago');
    expect(ago('2026-08-03T11:40:00Z', t + 5 * 60_000)).toBe('5 min ago');
  });
});

describe('clock time', () => {
  it('shows the time to the second, or to the minute, and the date only for another day; the start of today reads today like now', () => {
    const at = new Date(2026, 11, 6, 14, 2, 11).toISOString();
    const now = new Date(2026, 11, 6, 18, 30, 0).getTime();
    expect(clockTime(at, now)).toMatch(/^0?2:02:11\sPM$/);
    expect(clockTime(at, now, { seconds: false })).toMatch(/^0?2:02\sPM$/);
    expect(clockTime(at, new Date(2026, 11, 7, 9, 0, 0).getTime(), { seconds: false })).toMatch(/^Dec 6 0?2:02\sPM$/);
    expect(startOfDay(now)).toBe(new Date(2026, 11, 6).getTime());
    expect(clockTime(at, startOfDay(now))).toBe(clockTime(at, now));
  });
});

describe('values', () => {
  it('renders any JSON value as text, never cut', () => {
    expect(showValue('x')).toBe('x');
    expect(showValue({ a: [1] })).toBe('{"a":[1]}');
    expect(showValue(null)).toBe('null');
    // Never cut: the card scrolls instead.
    expect(showValue('y'.repeat(5000))).toBe('y'.repeat(5000));
  });

  it('gives every leaf of a nested input its own row, so a padded field cannot hide the next one', () => {
    const rows = inputRows({ note: 'ok', payload: { pad: ' '.repeat(5000), order: { amount: 17, tags: ['a', { x: null }] } }, empty: {} });
    expect(rows.map((r) => [r.path, r.value])).toEqual([
      ['note', 'ok'],
      ['payload.pad', ' '.repeat(5000)],
      ['payload.order.amount', 17],
      ['payload.order.tags[0]', 'a'],
      ['payload.order.tags[1].x', null],
      ['empty', {}],
    ]);
    expect(rows.map((r) => r.key)).toEqual(['note', 'payload', 'payload', 'payload', 'payload', 'empty']);
  });

  it('pairs input keys with facts of exactly the same name only', () => {
    const m = currentValues(
      { quantity: 3, reason: 'other' },
      {
        facts: [
          { name: 'quantity', value: 1 },
          { name: 'reason_code', value: 'x' },
        ],
      },
    );
    expect([...m]).toEqual([['quantity', 1]]);
    expect(currentValues({ quantity: 3 }, undefined).size).toBe(0);
  });

  it('names the element a legacy action targets and its current value', () => {
    const elements = [{ ref: 'e7', role: 'spinbutton', name: 'Quantity', value: '2' }];
    expect([...currentValues({ ref: 'e7', text: '5', clear: true }, { elements })]).toEqual([
      ['ref', 'spinbutton “Quantity”'],
      ['text', '2'],
    ]);
    expect(currentValues({ ref: 'e99', text: '5' }, { elements }).size).toBe(0);
  });
});
