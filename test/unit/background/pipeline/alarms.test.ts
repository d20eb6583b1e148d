import { describe, expect, it, vi } from 'vitest';
import { PURGE_ALARM, RECHECK_ALARM, ensureAlarms } from '../../../../src/background/pipeline/alarms.ts';

describe('pipeline alarms', () => {
  it('creates only the alarms that are missing (re-creating would reset their schedule)', async () => {
    const existing = new Set([PURGE_ALARM]);
    const alarms = { get: vi.fn(async (name: string) => (existing.has(name) ? { name } : undefined)), create: vi.fn(async () => undefined) };
    await ensureAlarms(alarms as never);
    expect(alarms.create).toHaveBeenCalledTimes(1);
    expect(alarms.create).toHaveBeenCalledWith(RECHECK_ALARM, { delayInMinutes: 1, periodInMinutes: 1 });
  });
});
