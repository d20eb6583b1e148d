import type { ActSettle } from '../../protocol/messages.ts';
import type { PageActivity } from './activity.ts';

/**
 * The page's own events say when it is done reacting — no fixed wait, no polling: no DOM mutation
 * for a moment, none of the requests that count still in flight, no finite animation or
 * transition running, no short timer the action set off still to run (page-timers.ts). The wait wakes only when one of those can have changed: the quiet period
 * running out, a request ending, an animation finishing, the document being left, or the cap.
 * Capped, so a page that mutates forever (a ticker, a spinner that never stops) cannot hold
 * anyone: the answer says it was capped and what was still busy. A navigation leaving the
 * document ends the wait at once (the next page is the worker's to wait for).
 */

export const SETTLE = { quietMs: 50, capMs: 1_500 } as const;

export interface SettleOptions {
  quietMs: number;
  capMs: number;
}

interface SettleProbe {
  now: number;
  /** When the wait began: the cap counts from here. */
  start: number;
  lastMutation: number;
  requestsInFlight: number;
  animating: boolean;
  leaving: boolean;
  /** When the last short timer the action set off is due (page-timers.ts), if one is pending. */
  timerDue?: number | undefined;
}

/** Pure: settled (how), or still waiting. */
function settleVerdict(p: SettleProbe, options: SettleOptions = SETTLE): ActSettle | 'wait' {
  const ms = Math.max(0, Math.round(p.now - p.start));
  if (p.leaving) return { ms, how: 'navigating' };
  const mutating = p.now - p.lastMutation < options.quietMs;
  const timing = p.timerDue !== undefined && p.timerDue > p.now;
  if (!mutating && p.requestsInFlight === 0 && !p.animating && !timing) return { ms, how: 'quiet' };
  if (p.now - p.start < options.capMs) return 'wait';
  const busy: NonNullable<ActSettle['busy']> = [];
  if (mutating) busy.push('mutations');
  if (p.requestsInFlight > 0) busy.push('requests');
  if (p.animating) busy.push('animations');
  if (timing) busy.push('timers');
  return { ms, how: 'capped', busy };
}

/**
 * Pure: when to look again while waiting — when the quiet period runs out if the DOM is what
 * keeps it busy, when the page's pending timer is due, else at the cap (a request ending or an
 * animation finishing wakes it sooner).
 */
export function nextWake(p: Pick<SettleProbe, 'now' | 'start' | 'lastMutation' | 'timerDue'>, options: SettleOptions = SETTLE): number {
  const cap = p.start + options.capMs;
  let wake = cap;
  const quietAt = p.lastMutation + options.quietMs;
  if (quietAt > p.now) wake = Math.min(wake, quietAt);
  // A moment after the timer, so its callback has run.
  if (p.timerDue !== undefined && p.timerDue > p.now) wake = Math.min(wake, p.timerDue + 1);
  return Math.max(p.now, wake);
}

/** Running animations and transitions that will end (an infinite spinner never does: not waited for). */
function finiteAnimations(doc: Document): Animation[] {
  const all = typeof doc.getAnimations === 'function' ? doc.getAnimations() : [];
  return all.filter((a) => {
    if (a.playState !== 'running') return false;
    const end = a.effect?.getComputedTiming().endTime;
    return typeof end === 'number' && Number.isFinite(end);
  });
}

export interface SettleSources {
  doc: Document;
  activity: PageActivity;
  /** Requests that count (started since the act began, or lately) that have not ended. */
  inFlight(): number;
  /** A navigation is taking this document away. */
  leaving(): boolean;
  /** When the last short timer that counts (set off by what is being waited for) is due, if one is pending. */
  timerDue?(): number | undefined;
  /** Calls `wake` when a request ends or the document starts to be left; returns the unsubscribe. */
  subscribe?(wake: () => void): () => void;
  clock?: () => number;
}

/**
 * Waits from `start` until the page settles or the cap passes. The DOM counts as changed no
 * earlier than `quietFrom`: an act passes its own start (whatever it set off must have a moment to
 * show), an observation passes nothing (a page quiet for a while is settled at once).
 */
export function settlePage(sources: SettleSources, start: number, options: SettleOptions = SETTLE, quietFrom = -Infinity): Promise<ActSettle> {
  const clock = sources.clock ?? (() => performance.now());
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const watched = new WeakSet<Animation>();
    const check = () => {
      if (done) return;
      const now = clock();
      const lastMutation = Math.max(sources.activity.lastMutation(), quietFrom);
      const animations = finiteAnimations(sources.doc);
      const timerDue = sources.timerDue?.();
      const verdict = settleVerdict({ now, start, lastMutation, requestsInFlight: sources.inFlight(), animating: animations.length > 0, leaving: sources.leaving(), timerDue }, options);
      if (verdict !== 'wait') {
        done = true;
        clearTimeout(timer);
        unsubscribe?.();
        resolve(verdict);
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(check, nextWake({ now, start, lastMutation, timerDue }, options) - now);
      for (const a of animations) {
        if (watched.has(a)) continue;
        watched.add(a);
        a.finished.then(check, check);
      }
    };
    const unsubscribe = sources.subscribe?.(check);
    check();
  });
}

/** A request this recent and still open holds an observation; an older one is a long poll, not the page reacting. */
const RECENT_REQUEST_MS = 2_000;

/**
 * Before an observation: waits until the page is quiet (a page quiet for a while is settled at
 * once), at most `capMs`. Quiet, it also gives the key of what the page shows (activity.ts).
 * `quietMs`: how long the DOM must have been still since its last change (the act's quiet period
 * unless asked for longer: a state new since the last look is held this long before it is believed).
 */
export async function settleForObservation(
  sources: Omit<SettleSources, 'inFlight' | 'leaving'> & { requests?: { inFlightSince(since: number): number; onEnd(wake: () => void): () => void }; view: Window },
  capMs: number,
  quietMs: number = SETTLE.quietMs,
): Promise<ActSettle & { key?: string }> {
  const clock = sources.clock ?? (() => performance.now());
  const settle = await settlePage(
    {
      ...sources,
      inFlight: () => sources.requests?.inFlightSince(clock() - RECENT_REQUEST_MS) ?? 0,
      leaving: () => false,
      ...(sources.requests ? { subscribe: (wake: () => void) => sources.requests!.onEnd(wake) } : {}),
    },
    clock(),
    { quietMs, capMs },
  );
  return settle.how === 'quiet' ? { ...settle, key: sources.activity.key(sources.view) } : settle;
}
