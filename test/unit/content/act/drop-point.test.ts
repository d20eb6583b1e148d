import { describe, expect, it } from 'vitest';
import { dropPoint } from '../../../../src/content/act/drop-point.ts';

describe('where a drag is released on its target', () => {
  const item = { left: 100, top: 200, width: 300, height: 40 };

  it('releases at the centre by default', () => {
    expect(dropPoint(item)).toEqual({ x: 250, y: 220 });
    expect(dropPoint(item, 'center')).toEqual({ x: 250, y: 220 });
  });

  it('releases "before" in the upper part and "after" in the lower part, inside the target and off its middle', () => {
    const before = dropPoint(item, 'before');
    const after = dropPoint(item, 'after');
    expect(before).toEqual({ x: 250, y: 210 });
    expect(after).toEqual({ x: 250, y: 230 });
    for (const p of [before, after]) expect(p.y > item.top && p.y < item.top + item.height).toBe(true);
  });

  it('stays near the edge of a tall target (a card, a column) rather than a quarter of the way in', () => {
    const column = { left: 0, top: 0, width: 200, height: 600 };
    expect(dropPoint(column, 'before').y).toBe(12);
    expect(dropPoint(column, 'after').y).toBe(588);
  });

  it('stays inside a thin target', () => {
    const y = dropPoint({ left: 0, top: 50, width: 10, height: 2 }, 'before').y;
    expect(y).toBeGreaterThan(50);
    expect(y).toBeLessThan(52);
  });
});
