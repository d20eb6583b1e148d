import { z } from 'zod';
import { canonicalJson } from '../base/canonical-json.ts';
import { hexOf } from '../base/hash.ts';
import { Sha256Hex } from '../protocol/primitives.ts';

/**
 * The audit log's signed head: HMAC-SHA256, under a non-extractable WebCrypto key kept in
 * IndexedDB, over the newest entry's seq and hash. Anyone with storage access can recompute the
 * SHA-256 chain after an edit; only code running in Steward can sign the new head, so a rewrite or
 * a truncation needs more than storage access.
 */

export const SignedHead = z.object({ seq: z.int().nonnegative(), hash: Sha256Hex, mac: Sha256Hex });
export type SignedHead = z.infer<typeof SignedHead>;

export interface AuditHead {
  seq: number;
  hash: string;
}

/** Key of the signed head in the `audit_seal` store. */
export const SEAL_HEAD = 'head';

const message = (head: AuditHead) => new TextEncoder().encode(`steward.audit.head.v1\n${canonicalJson({ seq: head.seq, hash: head.hash })}`);

const unhex = (text: string) => new Uint8Array(text.match(/../g)!.map((h) => parseInt(h, 16)));

export async function signHead(key: CryptoKey, head: AuditHead): Promise<SignedHead> {
  return { seq: head.seq, hash: head.hash, mac: hexOf(await crypto.subtle.sign('HMAC', key, message(head))) };
}

export async function headSignedBy(key: CryptoKey, head: SignedHead): Promise<boolean> {
  return crypto.subtle.verify('HMAC', key, unhex(head.mac), message(head));
}
