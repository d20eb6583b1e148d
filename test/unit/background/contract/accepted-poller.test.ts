import { describe, expect, it } from 'vitest';
import { AcceptedPoller } from '../../../../src/background/contract/accepted-poller.ts';

/** Documented limits of the module under test, written out so a change to them fails here. */
const POLL_EVERY_MS = 1_000;
const POLL_FOR_MS = 2 * 60_000;

/** A poller on a hand-driven clock: each tick runs the one pending timer and lets its re-check finish. */
function world(finishAfter: number | 'never') {
  let t = 0;
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const rechecks: string[] = [];
  const settled: string[] = [];
  const poller = new AcceptedPoller({
    recheck: async (id) => {
      rechecks.push(id);
      return { finished: finishAfter !== 'never' && rechecks.length >= finishAfter };
    },
    settled: (id) => settled.push(id),
    now: () => t,
    setTimer: (fn, ms) => timers.push({ fn, ms }),
  });
  const tick = async () => {
    const next = timers.shift();
    if (!next) return false;
    t += next.ms;
    next.fn();
    await new Promise((r) => setTimeout(r, 0));
    return true;
  };
  return { poller, timers, rechecks, settled, tick };
}

describe('following an action the site accepted', () => {
  it('re-checks it about once a second until it settles, then tells the panel once', async () => {
    const w = world(3);
    w.poller.watch('act_1');
    w.poller.watch('act_1');
    expect(w.timers).toEqual([{ fn: expect.any(Function), ms: POLL_EVERY_MS }]);
    while (await w.tick());
    expect(w.rechecks).toEqual(['act_1', 'act_1', 'act_1']);
    expect(w.settled).toEqual(['act_1']);
    expect(w.poller.isWatching('act_1')).toBe(false);
  });

  it('gives up after two minutes (the recheck alarm takes over) without claiming it settled', async () => {
    const w = world('never');
    w.poller.watch('act_2');
    while (await w.tick());
    expect(w.rechecks.length).toBe(POLL_FOR_MS / POLL_EVERY_MS);
    expect(w.settled).toEqual([]);
    expect(w.poller.isWatching('act_2')).toBe(false);
  });
});
