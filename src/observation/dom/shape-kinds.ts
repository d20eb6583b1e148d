import type { ShapeKind } from '../../protocol/element.ts';

/**
 * What kind of shape an SVG element is and how big next to the others of its drawing (pure: tag
 * names, attribute strings and box sizes in, words out).
 */

/** How many points a polygon's `points` attribute lists, a closing repeat of the first not counted (pure). */
function countPoints(points: string | null): number {
  if (!points) return 0;
  const numbers = points
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  if (numbers.some((n) => !Number.isFinite(n))) return 0;
  let n = Math.floor(numbers.length / 2);
  if (n > 1 && numbers[0] === numbers[2 * n - 2] && numbers[1] === numbers[2 * n - 1]) n--;
  return n;
}

/** A shape's kind from its tag (a three-point polygon is a triangle); a rect's squareness and an ellipse's roundness come with its box (`boxKind`). */
export function tagKind(localName: string, points: string | null): ShapeKind {
  switch (localName) {
    case 'circle':
    case 'ellipse':
    case 'rect':
    case 'polyline':
    case 'path':
    case 'line':
    case 'text':
    case 'image':
      return localName;
    case 'polygon':
      return countPoints(points) === 3 ? 'triangle' : 'polygon';
    default:
      return 'group';
  }
}

/** Sides within a tenth of each other: a square rect, a round ellipse (pure). */
export function boxKind(kind: ShapeKind, w: number, h: number): ShapeKind {
  const even = w > 0 && h > 0 && Math.abs(w - h) <= 0.1 * Math.max(w, h);
  if (kind === 'rect' && even) return 'square';
  if (kind === 'ellipse' && even) return 'circle';
  return kind;
}

export type ShapeSize = 'small' | 'medium' | 'large';

/** Shapes whose areas differ less than this many times are alike: no size is said of them. */
const ALIKE = 2.5;

/**
 * Each shape's size against the others of its drawing, from its box area (undefined: no area, or
 * not a shape sizes are told of): on a log scale between the smallest and the largest, the lowest
 * third is small, the top third large. A drawing whose shapes are all about alike says no sizes.
 */
export function sizeClasses(areas: ReadonlyArray<number | undefined>): Array<ShapeSize | undefined> {
  const logs = areas.map((a) => (a !== undefined && a >= 1 ? Math.log(a) : undefined));
  let lo = Infinity;
  let hi = -Infinity;
  for (const l of logs) {
    if (l === undefined) continue;
    lo = Math.min(lo, l);
    hi = Math.max(hi, l);
  }
  if (!(hi - lo >= Math.log(ALIKE))) return areas.map(() => undefined);
  return logs.map((l) => {
    if (l === undefined) return undefined;
    const p = (l - lo) / (hi - lo);
    return p >= 2 / 3 ? 'large' : p <= 1 / 3 ? 'small' : 'medium';
  });
}

/** Kinds whose box area says how big they look (a line's or a text's box does not). */
export const SIZED_KINDS: ReadonlySet<ShapeKind> = new Set(['circle', 'ellipse', 'rect', 'square', 'polygon', 'triangle', 'path', 'image']);
