import { canonicalJson } from './canonical-json.ts';

/** SHA-256 via WebCrypto, available in the service worker and in Node 20. */
export async function sha256Hex(text: string): Promise<string> {
  return hexOf(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** Bytes as lower-case hex, two digits each. */
export function hexOf(bytes: ArrayBuffer | Uint8Array): string {
  let hex = '';
  for (const b of new Uint8Array(bytes)) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** `sha256:` + hex of the canonical JSON of an action's input: what receipts and the audit bind to. */
export async function inputHash(input: unknown): Promise<string> {
  return `sha256:${await sha256Hex(canonicalJson(input))}`;
}

/**
 * What an idempotency key is bound to: the action, the resource (with the site it names, if any)
 * and the input together, so a key reused for another action, resource or site with the same
 * input is a conflict too. A request naming no site hashes as it always did.
 */
export async function requestHash(action: string, resource: { origin?: string | undefined; type: string; id: string }, input: unknown): Promise<string> {
  const named = { ...(resource.origin !== undefined ? { origin: resource.origin } : {}), type: resource.type, id: resource.id };
  return `sha256:${await sha256Hex(canonicalJson({ action, resource: named, input }))}`;
}

const encoder = new TextEncoder();

/**
 * FNV-1a 64 over UTF-8, as 16 hex characters: a small synchronous hash for observation
 * fingerprints, with no WebCrypto (which is async), identical in the service worker, the content
 * script and Node. Not a security primitive: it only has to make accidental collisions between two
 * observations of one page vanishingly rare. Computed on two 32-bit halves (BigInt-free, so it
 * stays fast on long inputs).
 */
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

/** FNV-1a (32-bit) over bytes, as 8 hex digits: cheap, stable, good enough for change detection. */
export function fnv1a32(bytes: ArrayLike<number>): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]! & 0xff;
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * Two FNV-1a-style 32-bit hashes over a text's code points, with different seeds and primes, as 16
 * hex digits: a stable key for a record that replaces its predecessor. Not a security primitive;
 * the output is stored, so it must never change.
 */
export function fnvPair(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x01000193 ^ 0x2f) >>> 0;
  }
  return `${h1.toString(16).padStart(8, '0')}${h2.toString(16).padStart(8, '0')}`;
}
