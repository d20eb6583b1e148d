/**
 * Where a person could press on an element's box: the sample points both the observation (is a
 * control reachable, or covered?) and the act side (where to press it) hit-test, so the two agree.
 * The centre first — where a person aims — then the quarter points, then points near the middle
 * of each edge; a box partly under a sticky header or a sibling is still reachable at one of them.
 * Pure (plain numbers in, plain numbers out), so it is unit-tested without a DOM.
 */

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** Fractions of the box, in the order they are tried. */
const FRACTIONS: ReadonlyArray<readonly [number, number]> = [
  [0.5, 0.5],
  [0.25, 0.25],
  [0.75, 0.25],
  [0.25, 0.75],
  [0.75, 0.75],
  [0.5, 0.15],
  [0.5, 0.85],
  [0.15, 0.5],
  [0.85, 0.5],
];

/**
 * Up to `max` points inside `box`, clipped to the viewport (`vw` × `vh`) when given: a point
 * outside it cannot be hit-tested. Points within two pixels of one already taken are dropped.
 */
export function hitPoints(box: Box, viewport?: { vw: number; vh: number }, max = FRACTIONS.length): Point[] {
  const points: Point[] = [];
  for (const [fx, fy] of FRACTIONS) {
    if (points.length >= max) break;
    const x = box.left + box.width * fx;
    const y = box.top + box.height * fy;
    if (viewport && !(x >= 0 && y >= 0 && x < viewport.vw && y < viewport.vh)) continue;
    // Points closer than two pixels hit the same thing: a tiny box gets one point.
    if (points.some((p) => Math.abs(p.x - x) < 2 && Math.abs(p.y - y) < 2)) continue;
    points.push({ x, y });
  }
  return points;
}
