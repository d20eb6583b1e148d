import { describe, expect, it } from 'vitest';
import { classifyVisibility, hitPoint } from '../../../src/observation/dom/visibility.ts';

const page = { w: 1280, h: 3000 };
const box = (x: number, y: number, w = 100, h = 30) => ({ x, y, w, h });

describe('classifyVisibility', () => {
  it('puts not-rendered first, then size, then position, then what is on top', () => {
    expect(classifyVisibility({ hidden: true, box: box(-9999, 0), page, hitsItself: false })).toBe('hidden');
    expect(classifyVisibility({ hidden: false, box: box(10, 10, 0, 30), page })).toBe('zero_size');
    expect(classifyVisibility({ hidden: false, box: box(10, 10, 1, 1), page })).toBe('visible');
    expect(classifyVisibility({ hidden: false, box: box(10, 10, 0.5, 1), page })).toBe('zero_size');
    expect(classifyVisibility({ hidden: false, box: box(10, 10), page, hitsItself: false })).toBe('covered');
    expect(classifyVisibility({ hidden: false, box: box(10, 10), page, hitsItself: true })).toBe('visible');
  });

  it('calls offscreen only what no scrolling can reach, not what is below the fold', () => {
    expect(classifyVisibility({ hidden: false, box: box(-10000, 0), page })).toBe('offscreen');
    expect(classifyVisibility({ hidden: false, box: box(0, -200, 100, 150), page })).toBe('offscreen');
    expect(classifyVisibility({ hidden: false, box: box(1300, 10), page })).toBe('offscreen');
    expect(classifyVisibility({ hidden: false, box: box(10, 3000), page })).toBe('offscreen');
    // Far below the viewport but inside the page: reachable by scrolling.
    expect(classifyVisibility({ hidden: false, box: box(10, 2900), page })).toBe('visible');
    // Partly off the left edge is still reachable.
    expect(classifyVisibility({ hidden: false, box: box(-50, 10), page })).toBe('visible');
  });

  it('treats NaN geometry as zero size rather than visible', () => {
    expect(classifyVisibility({ hidden: false, box: { x: 0, y: 0, w: Number.NaN, h: 10 }, page })).toBe('zero_size');
  });
});

describe('hitPoint', () => {
  it('is the centre when it lies in the viewport, else nothing to test', () => {
    const vp = { w: 800, h: 600 };
    expect(hitPoint({ left: 10, top: 20, width: 100, height: 40 }, vp)).toEqual({ x: 60, y: 40 });
    expect(hitPoint({ left: 10, top: 590, width: 100, height: 40 }, vp)).toBeUndefined();
    expect(hitPoint({ left: -100, top: 10, width: 100, height: 40 }, vp)).toBeUndefined();
  });
});
