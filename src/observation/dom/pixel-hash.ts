/** FNV-1a (32-bit) over pixel bytes, as 8 hex digits: cheap, stable, good enough for change detection. */
export function pixelHash(bytes: ArrayLike<number>): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]! & 0xff;
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** True when every pixel is fully transparent (an empty canvas, or WebGL whose buffer was cleared). */
export function isBlank(rgba: ArrayLike<number>): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 0) return false;
  return true;
}
