import { describe, expect, it } from 'vitest';
import { installPageTimers } from '../../../src/content/main/page-timers.ts';
import { pageTimersDue } from '../../../src/content/act/page-timers.ts';
import { PAGE_TIMERS_QUERY, PAGE_TIMERS_REPLY } from '../../../src/protocol/page-channel-names.ts';

/** The documented limit of the module under test, written out so a change to it fails here. */
const SHORT_MS = 1_000;

/**
 * The main world notes the page's short timers so settling can wait for what an action set off on a
 * delay (a hover menu's 300 ms, a debounced search). A stand-in window with Node's own EventTarget
 * and CustomEvent, and a clock the test moves.
 */
function stage() {
  let clock = 1_000;
  let nextId = 1;
  const set: Array<{ id: number; args: unknown[] }> = [];
  const cleared: unknown[] = [];
  const doc = new EventTarget();
  const win = {
    document: doc,
    EventTarget,
    CustomEvent,
    performance: { now: () => clock },
    setTimeout(...args: unknown[]) {
      const id = nextId++;
      set.push({ id, args });
      return id;
    },
    clearTimeout(id: unknown) {
      cleared.push(id);
    },
  };
  installPageTimers(win as unknown as Window & typeof globalThis);
  return {
    win,
    doc: doc as unknown as Document,
    set,
    cleared,
    at(ms: number) {
      clock = ms;
    },
  };
}

describe('the page’s short timers (main world)', () => {
  it('passes every call through unchanged and reads like the native function', () => {
    const s = stage();
    const f = () => {};
    const id = s.win.setTimeout(f, 300, 'a', 'b');
    expect(s.set).toEqual([{ id, args: [f, 300, 'a', 'b'] }]);
    s.win.clearTimeout(id);
    expect(s.cleared).toEqual([id]);
    expect(s.win.setTimeout.name).toBe('setTimeout');
  });

  it('answers when the last short timer set in the asked window is due, until it has run or is cleared', () => {
    const s = stage();
    s.win.setTimeout(() => {}, 300);
    const late = s.win.setTimeout(() => {}, 500);
    expect(pageTimersDue(s.doc, 900, 1_100)).toBe(1_500);
    s.win.clearTimeout(late);
    expect(pageTimersDue(s.doc, 900, 1_100)).toBe(1_300);
    s.at(1_300);
    expect(pageTimersDue(s.doc, 900, 1_100)).toBeUndefined();
  });

  it('leaves out timers set outside the window, long delays and string handlers: a ticker or a poll holds no action', () => {
    const s = stage();
    s.win.setTimeout(() => {}, 200);
    s.at(2_000);
    s.win.setTimeout(() => {}, SHORT_MS + 1);
    s.win.setTimeout('tick()', 100);
    s.win.setTimeout(() => {}, { valueOf: () => 10 } as unknown as number);
    expect(pageTimersDue(s.doc, 1_500, 2_100)).toBeUndefined();
    s.win.setTimeout(() => {});
    expect(pageTimersDue(s.doc, 1_500, 2_100)).toBeUndefined();
    s.win.setTimeout(() => {}, 40);
    expect(pageTimersDue(s.doc, 1_500, 2_100)).toBe(2_040);
  });

  it('a forged or garbled reply counts as none', () => {
    const doc = new EventTarget() as unknown as Document;
    doc.addEventListener(PAGE_TIMERS_QUERY, () => doc.dispatchEvent(new CustomEvent(PAGE_TIMERS_REPLY, { detail: { due: 9e9 } })));
    expect(pageTimersDue(doc, 0, 10)).toBeUndefined();
    const other = new EventTarget() as unknown as Document;
    other.addEventListener(PAGE_TIMERS_QUERY, () => other.dispatchEvent(new CustomEvent(PAGE_TIMERS_REPLY, { detail: 'soon' })));
    expect(pageTimersDue(other, 0, 10)).toBeUndefined();
    expect(pageTimersDue(new EventTarget() as unknown as Document, 0, 10)).toBeUndefined();
  });
});
