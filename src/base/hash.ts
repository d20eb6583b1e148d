import { canonicalJson } from './canonical-json.ts';

/** SHA-256 via WebCrypto, available in the service worker and in Node 20. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  const bytes = new Uint8Array(digest);
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** `sha256:` + hex of the canonical JSON of an action's input: what receipts and the audit bind to. */
export async function inputHash(input: unknown): Promise<string> {
  return `sha256:${await sha256Hex(canonicalJson(input))}`;
}

/**
 * What an idempotency key is bound to: the action, the resource and the input together, so a
 * key reused for another action or resource with the same input is a conflict too.
 */
export async function requestHash(action: string, resource: { type: string; id: string }, input: unknown): Promise<string> {
  return `sha256:${await sha256Hex(canonicalJson({ action, resource: { type: resource.type, id: resource.id }, input }))}`;
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
