import { describe, expect, it } from 'vitest';
import { CaptureBudget, PixelMemo } from '../../../../src/background/ports/capture-budget.ts';

/** The documented limit of the module under test, written out so a change to it fails here. */
const REUSE_MS = 2_000;

describe('the capture quota (two captureVisibleTab calls a second)', () => {
  it('allows two calls in a second and refuses the third at once; a second later there are two again', () => {
    const budget = new CaptureBudget();
    expect(budget.take(0)).toBe(true);
    expect(budget.take(10)).toBe(true);
    expect(budget.take(500)).toBe(false);
    expect(budget.take(1_000)).toBe(false);
    expect(budget.take(1_100)).toBe(true);
    expect(budget.take(1_100)).toBe(true);
    expect(budget.take(1_200)).toBe(false);
  });
});

describe('pixels of the same page state', () => {
  const shot = { width: 1280, height: 720, blank: false };

  it('serve again for the same tab, URL and key, for a moment', () => {
    const memo = new PixelMemo();
    memo.set(7, 'http://lab.test/a', 'k1', shot, 1_000);
    expect(memo.get(7, 'http://lab.test/a', 'k1', 1_000 + REUSE_MS)).toEqual(shot);
    expect(memo.get(7, 'http://lab.test/a', 'k1', 1_001 + REUSE_MS)).toBeUndefined();
  });

  it('never for another key (the DOM changed, the page scrolled), another URL or another tab', () => {
    const memo = new PixelMemo();
    memo.set(7, 'http://lab.test/a', 'k1', shot, 1_000);
    expect(memo.get(7, 'http://lab.test/a', 'k2', 1_001)).toBeUndefined();
    expect(memo.get(7, 'http://lab.test/b', 'k1', 1_001)).toBeUndefined();
    expect(memo.get(8, 'http://lab.test/a', 'k1', 1_001)).toBeUndefined();
    // A clock that went backwards proves nothing about the age.
    expect(memo.get(7, 'http://lab.test/a', 'k1', 999)).toBeUndefined();
  });
});
