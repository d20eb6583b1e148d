import { PAGE_TIMERS_QUERY, PAGE_TIMERS_REPLY } from '../../protocol/page-channel-names.ts';
import { disguise } from './listener-marks.ts';

/**
 * The page's short timers, so settling can wait for what an action set off on a delay: a menu that
 * opens 300 ms after the pointer enters (jQuery UI), a search debounced after a key. Each
 * `setTimeout` of at most SHORT_MS is noted (when set, when due) until it runs or is cleared; a
 * query names a window of time and is answered with when the last timer set in it is due. Only the
 * window matters: a ticker's timers set before or after an action do not hold it. Nothing of the
 * page's is called (a delay that is not a number counts as none), and a page that breaks or forges
 * this only makes Steward wait less or up to its cap, never act differently.
 */

/** Longer delays are not a reaction to the action (a poll, an idle logout): not waited for. */
const SHORT_MS = 1_000;
/** Timers kept at most; runs past them are dropped first (a page that sets timers without end). */
const MAX_PENDING = 2_000;

interface Pending {
  set: number;
  due: number;
}

export function installPageTimers(win: Window & typeof globalThis = window): void {
  const doc = win.document;
  const apply = Reflect.apply;
  const originalSet = win.setTimeout;
  const originalClear = win.clearTimeout;
  const perf = win.performance;
  const perfNow = perf.now;
  const now = (): number => apply(perfNow, perf, []) as number;
  const dispatch = win.EventTarget.prototype.dispatchEvent;
  const addListener = win.EventTarget.prototype.addEventListener;
  const CustomEventOf = win.CustomEvent;
  const pending = new Map<unknown, Pending>();

  const prune = (at: number): void => {
    for (const [id, t] of pending) if (t.due <= at) pending.delete(id);
    // Still too many: the oldest go (Map keeps insertion order).
    for (const id of pending.keys()) {
      if (pending.size <= MAX_PENDING) break;
      pending.delete(id);
    }
  };

  const setTimeout = function (this: unknown, handler: unknown, delay: unknown): unknown {
    // eslint-disable-next-line prefer-rest-params
    const id = apply(originalSet, this ?? win, arguments);
    try {
      const ms = delay === undefined ? 0 : typeof delay === 'number' && Number.isFinite(delay) ? Math.max(0, delay) : undefined;
      if (ms !== undefined && ms <= SHORT_MS && typeof handler === 'function') {
        const at = now();
        pending.set(id, { set: at, due: at + ms });
        if (pending.size > MAX_PENDING) prune(at);
      }
    } catch {
      // Noting is best effort; the page's timer is set either way.
    }
    return id;
  };
  const clearTimeout = function (this: unknown, id: unknown): unknown {
    pending.delete(id);
    // eslint-disable-next-line prefer-rest-params
    return apply(originalClear, this ?? win, arguments);
  };
  disguise(setTimeout as (...args: never[]) => unknown, originalSet as (...args: never[]) => unknown, 'setTimeout');
  disguise(clearTimeout as (...args: never[]) => unknown, originalClear as (...args: never[]) => unknown, 'clearTimeout');
  win.setTimeout = setTimeout as typeof win.setTimeout;
  win.clearTimeout = clearTimeout as typeof win.clearTimeout;

  apply(addListener, doc, [
    PAGE_TIMERS_QUERY,
    (event: Event) => {
      try {
        const [from, to] = String((event as CustomEvent).detail)
          .split(',')
          .map(Number);
        const at = now();
        prune(at);
        let last = -Infinity;
        for (const t of pending.values()) if (t.set >= from! && t.set <= to! && t.due > last) last = t.due;
        apply(dispatch, doc, [new CustomEventOf(PAGE_TIMERS_REPLY, { detail: Number.isFinite(last) ? String(last) : '' })]);
      } catch {
        // No answer: the isolated world waits as if no timer were set.
      }
    },
  ]);
}
