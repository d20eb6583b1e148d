import { fakeBrowser } from '@webext-core/fake-browser';
import { describe, expect, it, vi } from 'vitest';
import { PURGE_ALARM, RECHECK_ALARM, ensureAlarms } from '../../../../src/background/core/alarms.ts';

describe('pipeline alarms', () => {
  it('creates only the alarms that are missing (re-creating would reset their schedule)', async () => {
    await fakeBrowser.alarms.create(PURGE_ALARM, { when: 1_000, periodInMinutes: 60 });
    const create = vi.spyOn(fakeBrowser.alarms, 'create');
    await ensureAlarms();
    expect(create).toHaveBeenCalledTimes(1);
    expect(create).toHaveBeenCalledWith(RECHECK_ALARM, { delayInMinutes: 1, periodInMinutes: 1 });
    create.mockRestore();
    expect(await fakeBrowser.alarms.get(PURGE_ALARM)).toMatchObject({ scheduledTime: 1_000, periodInMinutes: 60 });
    expect(await fakeBrowser.alarms.get(RECHECK_ALARM)).toMatchObject({ periodInMinutes: 1 });
  });

  it('on a fresh start: purge hourly and recheck every minute, both first due a minute from now', async () => {
    const before = Date.now();
    await ensureAlarms();
    const alarms = await fakeBrowser.alarms.getAll();
    expect(alarms.map((a) => [a.name, a.periodInMinutes])).toEqual([
      [PURGE_ALARM, 60],
      [RECHECK_ALARM, 1],
    ]);
    for (const a of alarms) expect(a.scheduledTime).toBeGreaterThanOrEqual(before + 60_000);
    await ensureAlarms();
    expect(await fakeBrowser.alarms.getAll()).toEqual(alarms);
  });
});
