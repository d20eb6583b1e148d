import { fnv1a32 } from '../../base/hash.ts';

/** A canvas's pixels as 8 hex digits, to tell when what it shows changed. */
export function pixelHash(rgba: ArrayLike<number>): string {
  return fnv1a32(rgba);
}
