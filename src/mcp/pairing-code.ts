/**
 * The secrets of a pairing, drawn from a random-bytes port (crypto.getRandomValues in the worker):
 * the short code a person compares by eye, and the claim secret only the asking bridge knows.
 * Pure; the comparisons take the same time whatever the input, so a local client timing the
 * worker learns nothing about the code or the stored hash.
 */

export type RandomBytes = (length: number) => Uint8Array;

/** 2^32 rounded down to a multiple of 10^6: draws at or above it are redrawn, so every code is equally likely. */
const UNBIASED_LIMIT = Math.floor(0x1_0000_0000 / 1_000_000) * 1_000_000;

/** Six uniformly random digits as `483-192`. */
export function newPairingCode(random: RandomBytes): string {
  for (;;) {
    const b = random(4);
    const n = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
    if (n >= UNBIASED_LIMIT) continue;
    const digits = String(n % 1_000_000).padStart(6, '0');
    return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  }
}

/** `483 192`, `483192`, ` 483-192 ` → `483192`; anything else → undefined (not a code at all). */
export function codeDigits(text: string): string | undefined {
  const digits = text.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
}

/** 32 random bytes in base64url (43 characters). */
export function newClaimSecret(random: RandomBytes): string {
  return base64url(random(32));
}

/** `pair_` + 16 random bytes in base64url. */
export function newPairingId(random: RandomBytes): string {
  return `pair_${base64url(random(16))}`;
}

/** Six hex digits, to tell apart two clients that share a name. */
export function shortHex(random: RandomBytes): string {
  return [...random(3)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Whether two strings are equal, looking at every character of the expected one whatever the
 * other holds: no early exit on the first difference or on a length mismatch.
 */
export function constantTimeEqual(expected: string, given: string): boolean {
  let diff = expected.length ^ given.length;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ (i < given.length ? given.charCodeAt(i) : 0);
  return diff === 0;
}

/** `Claude Desktop` → `claude-desktop`: the readable part of an MCP client's agent id. */
export function clientSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'client';
}
