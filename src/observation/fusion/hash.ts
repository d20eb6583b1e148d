/**
 * A small synchronous hash for fingerprints. FNV-1a 64 over UTF-8: no WebCrypto (which is async),
 * identical in the service worker, the content script and Node. Not a security primitive: it only
 * has to make accidental collisions between two observations of one page vanishingly rare.
 */

const encoder = new TextEncoder();

/** FNV-1a 64-bit, computed on two 32-bit halves (BigInt-free, so it stays fast on long inputs). */
export function fnv1a64(text: string): string {
  const bytes = encoder.encode(text);
  // offset basis 0xcbf29ce484222325 as high/low 32-bit words
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]!) >>> 0;
    // multiply by the FNV prime 0x00000100_000001b3 = 2^40 + 0x1b3, modulo 2^64
    const loMul = lo * 0x1b3;
    const carry = Math.floor(loMul / 0x1_0000_0000);
    const newLo = loMul >>> 0;
    hi = (Math.imul(hi, 0x1b3) + carry + ((lo << 8) >>> 0)) >>> 0; // (lo << 40) lands in hi as lo << 8
    lo = newLo;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/**
 * JSON with object keys sorted at every level, so equal values always serialise identically
 * whatever order their producer built them in. `undefined` members are dropped, as JSON does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}
