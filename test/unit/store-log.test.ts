import { describe, expect, it } from 'vitest';
import { EventLog, RecordCounters } from '../../sites/store-log.ts';

describe('demo store bookkeeping', () => {
  it('counts per record from zero, hands out copies, and starts over on reset', () => {
    const counters = new RecordCounters(() => ({ cancelled: 0, paid: 0 }));
    counters.reset(['A', 'B']);
    counters.bump('A', 'cancelled');
    counters.bump('A', 'cancelled');
    counters.bump('C', 'paid');
    const a = counters.of('A');
    a.cancelled = 99;
    expect(counters.of('A')).toEqual({ cancelled: 2, paid: 0 });
    expect(counters.all()).toEqual({ A: { cancelled: 2, paid: 0 }, B: { cancelled: 0, paid: 0 }, C: { cancelled: 0, paid: 1 } });
    expect(counters.of('nobody')).toEqual({ cancelled: 0, paid: 0 });
    counters.reset(['B']);
    expect(counters.all()).toEqual({ B: { cancelled: 0, paid: 0 } });
  });

  it('numbers events from 1, keeps the newest thousand, and numbers afresh after clear', () => {
    const log = new EventLog<{ seq: number; at: string; type: string }>();
    for (let i = 0; i < 1005; i++) log.push({ type: `e${i}` });
    const events = log.list();
    expect(events).toHaveLength(1000);
    expect(events[0]).toMatchObject({ seq: 6, type: 'e5' });
    expect(events.at(-1)).toMatchObject({ seq: 1005, type: 'e1004' });
    expect(Date.parse(events[0]!.at)).not.toBeNaN();
    log.clear();
    log.push({ type: 'again' });
    expect(log.list()).toEqual([expect.objectContaining({ seq: 1, type: 'again' })]);
  });
});
