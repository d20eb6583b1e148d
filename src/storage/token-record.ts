import { z } from 'zod';
import { Sha256Hex } from '../protocol/primitives.ts';
import { DelegatedAgentToken, DelegatedAgentTokenBase, TOKEN_SECRET_PREFIX, refineToken } from '../protocol/token.ts';

/**
 * A token as the `tokens` store keeps it: the public token plus the SHA-256 of its secret, never
 * the secret. A record without `secret_hash` comes from before secrets existed (database v2, when
 * the public id was the credential): it can only be revoked, so a copy of an old database hands out
 * nothing that works.
 */
export const StoredToken = DelegatedAgentTokenBase.extend({ secret_hash: Sha256Hex.optional() }).superRefine((t, ctx) => {
  refineToken(t, ctx);
  if (t.secret_hash === undefined && t.revoked_at === undefined) {
    ctx.addIssue({ code: 'custom', path: ['secret_hash'], message: 'a token without a secret hash must be revoked' });
  }
});
export type StoredToken = z.infer<typeof StoredToken>;

/** The public token, without the secret's hash (what lists, events and the pipeline see). */
export function publicToken(record: StoredToken): DelegatedAgentToken {
  const { secret_hash: _hash, ...token } = record;
  return token;
}

/** `stw_secret_` + 32 random bytes, base64url: 256 bits, so the hash cannot be reversed. */
export function newTokenSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `${TOKEN_SECRET_PREFIX}${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}
