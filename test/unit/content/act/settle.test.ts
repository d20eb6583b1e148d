import { describe, expect, it, vi } from 'vitest';
import { PageActivity } from '../../../../src/content/act/activity.ts';
import { markOwn } from '../../../../src/content/presence/own-elements.ts';
import { LISTENER_MARK_ATTRIBUTE } from '../../../../src/protocol/listener-marks.ts';
import { nextWake, SETTLE, settlePage, type SettleOptions } from '../../../../src/content/act/settle.ts';
import { RequestLedger } from '../../../../src/content/act/requests.ts';
import { hitPoints } from '../../../../src/observation/dom/hit-points.ts';

/** The page as settlePage reads it: the clock and timers nextWake takes, and what else keeps it busy. */
type Probe = Parameters<typeof nextWake>[0] & { requestsInFlight: number; animating: boolean; leaving: boolean };
const probe = (p: Partial<Probe>): Probe => ({ now: 1000, start: 900, lastMutation: 0, requestsInFlight: 0, animating: false, leaving: false, ...p });

/**
 * What settlePage decides at its first look (at `p.now`, the clock standing still) at a page as
 * `p` describes it: settled, and how; or 'wait' — then the test ends the wait as a navigation would.
 */
async function settleVerdict(p: Probe, options: SettleOptions = SETTLE) {
  let leaving = p.leaving;
  let wake = () => {};
  // A running animation that will end (an infinite one is not waited for).
  const animation = { playState: 'running', effect: { getComputedTiming: () => ({ endTime: 300 }) }, finished: new Promise(() => {}) };
  const doc = { getAnimations: () => (p.animating ? [animation] : []) } as unknown as Document;
  const sources = {
    doc,
    activity: { lastMutation: () => p.lastMutation } as never,
    inFlight: () => p.requestsInFlight,
    leaving: () => leaving,
    timerDue: () => p.timerDue,
    subscribe: (w: () => void) => {
      wake = w;
      return () => {};
    },
    clock: () => p.now,
  };
  const settled = settlePage(sources, p.start, options);
  // Settled at the first look: the promise is resolved already, so it wins the race.
  const first = await Promise.race([settled, Promise.resolve('wait' as const)]);
  if (first === 'wait') {
    leaving = true;
    wake();
    expect(await settled).toMatchObject({ how: 'navigating' });
  }
  return first;
}

describe('settling by events', () => {
  it('is quiet once nothing mutated for a moment, no request is in flight and no animation runs', async () => {
    expect(await settleVerdict(probe({}))).toEqual({ ms: 100, how: 'quiet' });
    expect(await settleVerdict(probe({ lastMutation: 980 }))).toBe('wait');
    expect(await settleVerdict(probe({ requestsInFlight: 1 }))).toBe('wait');
    expect(await settleVerdict(probe({ animating: true }))).toBe('wait');
  });

  it('stops at the cap and says what was still busy', async () => {
    expect(await settleVerdict(probe({ now: 2500, start: 900, lastMutation: 2490, requestsInFlight: 2 }))).toEqual({ ms: 1600, how: 'capped', busy: ['mutations', 'requests'] });
  });

  it('waits for a short timer the action set off (a hover menu that opens after 300 ms), not past it', async () => {
    expect(await settleVerdict(probe({ timerDue: 1_200 }))).toBe('wait');
    expect(await settleVerdict(probe({ timerDue: 1_000 }))).toEqual({ ms: 100, how: 'quiet' });
    expect(await settleVerdict(probe({ now: 2500, timerDue: 2_600 }))).toEqual({ ms: 1600, how: 'capped', busy: ['timers'] });
    expect(nextWake({ now: 1000, start: 900, lastMutation: 0, timerDue: 1_300 }, { quietMs: 50, capMs: 1500 })).toBe(1_301);
    expect(nextWake({ now: 1000, start: 900, lastMutation: 990, timerDue: 1_300 }, { quietMs: 50, capMs: 1500 })).toBe(1_040);
  });

  it('ends at once when the document is being left', async () => {
    expect(await settleVerdict(probe({ leaving: true, requestsInFlight: 3 }))).toEqual({ ms: 100, how: 'navigating' });
  });

  it('wakes when the quiet period runs out, else at the cap (a request or an animation ending wakes it sooner)', () => {
    const options = { quietMs: 50, capMs: 1500 };
    expect(nextWake({ now: 1000, start: 900, lastMutation: 980 }, options)).toBe(1030);
    // Quiet already, busy with something else: nothing to time but the cap.
    expect(nextWake({ now: 1000, start: 900, lastMutation: 0 }, options)).toBe(2400);
    // Never past the cap, never in the past.
    expect(nextWake({ now: 2390, start: 900, lastMutation: 2380 }, options)).toBe(2400);
    expect(nextWake({ now: 2500, start: 900, lastMutation: 2490 }, options)).toBe(2500);
  });
});

describe('settling after a hover', () => {
  it('does not call a page settled before a menu with a 300 ms hover delay has opened: it waits for the page’s timer, not a fixed dwell', async () => {
    vi.useFakeTimers();
    try {
      const clock = () => Date.now();
      const start = clock();
      // The page changes nothing until its menu opens, 300 ms after the pointer came to rest (its own timer).
      let lastMutation = -Infinity;
      const due = start + 300;
      setTimeout(() => (lastMutation = clock()), 300);
      const sources = { doc: {} as Document, activity: { lastMutation: () => lastMutation } as never, inFlight: () => 0, leaving: () => false, clock };
      const settled = settlePage({ ...sources, timerDue: () => (clock() < due ? due : undefined) }, start, { quietMs: 50, capMs: 1500 }, start);
      await vi.advanceTimersByTimeAsync(2000);
      const verdict = await settled;
      expect(verdict.how).toBe('quiet');
      expect(verdict.ms).toBeGreaterThanOrEqual(350);
      // No timer pending: nothing to wait for past the quiet period.
      lastMutation = -Infinity;
      const early = settlePage(sources, clock(), { quietMs: 50, capMs: 1500 }, clock());
      await vi.advanceTimersByTimeAsync(2000);
      expect((await early).ms).toBeLessThan(300);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the request ledger (isolated world, fed by the page-controlled main world)', () => {
  const at = { t: 0 };
  const ledger = () => new RequestLedger('http://lab.test', () => at.t);

  it('counts only requests the act set off, and lists the ones that may have written', () => {
    const l = ledger();
    at.t = 10;
    l.accept({ phase: 'start', id: 1, method: 'GET', url: 'http://lab.test/poll', kind: 'fetch' }); // before the act: a long poll
    at.t = 100;
    l.acceptEvent({ type: 'request', request: { phase: 'start', id: 2, method: 'delete', url: 'http://lab.test/items/7?token=s3cret', kind: 'fetch' } });
    l.accept({ phase: 'start', id: 3, method: 'GET', url: 'http://lab.test/list', kind: 'xhr' });
    l.accept({ phase: 'start', id: 4, method: 'GET', url: 'http://tracker.example/p.gif?u=1', kind: 'fetch' });
    l.accept({ phase: 'start', id: 5, method: 'POST', url: 'http://lab.test/beacon', kind: 'beacon' });
    expect(l.inFlightSince(50)).toBe(3); // 2, 3, 4 — not the poll, not the beacon
    at.t = 130;
    l.accept({ phase: 'end', id: 2, status: 200 });
    l.accept({ phase: 'end', id: 3, status: 200 });
    l.accept({ phase: 'end', id: 4, status: 0 });
    expect(l.inFlightSince(50)).toBe(0);
    expect(l.writesSince(50)).toEqual([
      { method: 'DELETE', url: 'http://lab.test/items/7?token=redacted', kind: 'fetch', status: 200, at_ms: 50 },
      { method: 'GET', url: 'http://tracker.example/p.gif?u=1', kind: 'fetch', status: 0, at_ms: 50 },
      { method: 'POST', url: 'http://lab.test/beacon', kind: 'beacon', at_ms: 50 },
    ]);
  });

  it('wakes whoever waits when a request ends, until they stop listening', () => {
    const l = ledger();
    at.t = 0;
    let woken = 0;
    const off = l.onEnd(() => woken++);
    l.accept({ phase: 'start', id: 1, method: 'GET', url: 'http://lab.test/a', kind: 'fetch' });
    expect(woken).toBe(0);
    l.accept({ phase: 'end', id: 1, status: 200 });
    expect(woken).toBe(1);
    off();
    l.accept({ phase: 'start', id: 2, method: 'GET', url: 'http://lab.test/b', kind: 'fetch' });
    l.accept({ phase: 'end', id: 2, status: 200 });
    expect(woken).toBe(1);
  });

  it('refuses what is not a request message, and a replayed id cannot move a start', () => {
    const l = ledger();
    at.t = 100;
    l.accept({ phase: 'start', id: -1, method: 'POST', url: 'x', kind: 'fetch' });
    l.accept({ phase: 'start', id: 1, method: 'POST', url: 'http://lab.test/a', kind: 'websocket' });
    l.acceptEvent({ type: 'network', record: {} });
    expect(l.rejected).toBe(2);
    l.accept({ phase: 'start', id: 9, method: 'POST', url: 'javascript:alert(1)', kind: 'fetch' });
    at.t = 500;
    l.accept({ phase: 'start', id: 9, method: 'GET', url: 'http://lab.test/b', kind: 'fetch' });
    expect(l.writesSince(0)).toEqual([{ method: 'POST', url: '(an address Steward could not read)', kind: 'fetch', at_ms: 100 }]);
  });

  it('keeps a bounded number of requests', () => {
    const l = ledger();
    for (let i = 0; i < 1000; i++) l.accept({ phase: 'start', id: i, method: 'POST', url: 'http://lab.test/x', kind: 'fetch' });
    expect(l.inFlightSince(0)).toBe(256);
    expect(l.writesSince(0)).toHaveLength(32);
  });

  it('notes a form the isolated world saw submitted (a POST writes; a GET search does not)', () => {
    const l = ledger();
    at.t = 0;
    l.noteForm('post', 'http://lab.test/act/form');
    l.noteForm('get', 'http://lab.test/search?q=1');
    expect(l.writesSince(0)).toEqual([{ method: 'POST', url: 'http://lab.test/act/form', kind: 'form', at_ms: 0 }]);
  });
});

describe('hit points (shared by observation and act)', () => {
  it('tries the centre first, then quarter and edge points, inside the viewport only', () => {
    const pts = hitPoints({ left: 0, top: 0, width: 100, height: 40 });
    expect(pts[0]).toEqual({ x: 50, y: 20 });
    expect(pts).toHaveLength(9);
    const clipped = hitPoints({ left: -50, top: 0, width: 100, height: 40 }, { vw: 800, vh: 600 });
    expect(clipped.every((p) => p.x >= 0)).toBe(true);
    expect(hitPoints({ left: 5, top: 5, width: 1, height: 1 })).toHaveLength(1);
  });
});

describe("the page's activity leaves out Steward's own listener marks", () => {
  /** Whether the page's activity counts `records`, delivered to its MutationObserver (a stand-in: Node has none), as a change. */
  const pageChange = (records: MutationRecord[]): boolean => {
    let pending: MutationRecord[] = [];
    vi.stubGlobal(
      'MutationObserver',
      class {
        observe() {}
        takeRecords() {
          const taken = pending;
          pending = [];
          return taken;
        }
      },
    );
    try {
      let t = 0;
      const activity = new PageActivity({} as Document, () => ++t);
      const before = activity.lastMutation();
      pending = records;
      return activity.lastMutation() !== before;
    } finally {
      vi.unstubAllGlobals();
    }
  };
  const attr = (attributeName: string) => ({ type: 'attributes', attributeName }) as unknown as MutationRecord;
  const childList = (addedNodes: object[], removedNodes: object[]) => ({ type: 'childList', attributeName: null, target: {}, addedNodes, removedNodes }) as unknown as MutationRecord;
  it('counts any change of the page, but not a listener mark an observation asked the main world to write', () => {
    expect(pageChange([attr(LISTENER_MARK_ATTRIBUTE)])).toBe(false);
    expect(pageChange([attr(LISTENER_MARK_ATTRIBUTE), attr('class')])).toBe(true);
    expect(pageChange([childList([{}], [])])).toBe(true);
    expect(pageChange([])).toBe(false);
  });

  it("nor Steward's indicator coming and going (or changing), while the page's own nodes next to it still count", () => {
    const host = {} as Node;
    markOwn(host);
    expect(pageChange([childList([host], [])])).toBe(false);
    expect(pageChange([childList([], [host])])).toBe(false);
    expect(pageChange([{ type: 'attributes', attributeName: 'style', target: host } as unknown as MutationRecord])).toBe(false);
    expect(pageChange([childList([host, {}], [])])).toBe(true);
  });
});
