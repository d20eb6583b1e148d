import { fnv1a32 } from '../../base/hash.ts';

/** A canvas's pixels as 8 hex digits, to tell when what it shows changed. */
export function pixelHash(rgba: ArrayLike<number>): string {
  return fnv1a32(rgba);
}

/** True when every pixel is fully transparent (an empty canvas, or WebGL whose buffer was cleared). */
export function isBlank(rgba: ArrayLike<number>): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 0) return false;
  return true;
}
