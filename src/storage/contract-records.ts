import { z } from 'zod';
import { AgentContract, AgentPublicJwk, TokenGrant } from '../protocol/agent-contract.ts';

/**
 * What the contract path keeps in the `steward` database (agent-key-store.ts, site-grant-store.ts),
 * re-validated on every read: a record edited by hand, corrupted or from a future version is an
 * error, never a trusted key or token.
 */

/** A JWK thumbprint (RFC 7638, SHA-256, base64url): the signature's keyid and the token's cnf.jkt. */
const Thumbprint = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a 43-character base64url SHA-256 thumbprint');

/** The private half: an Ed25519 signing key the worker can use but nobody can export. */
const PrivateSigningKey = z.custom<CryptoKey>(
  (k) => k instanceof CryptoKey && k.type === 'private' && !k.extractable && k.algorithm.name === 'Ed25519' && k.usages.includes('sign'),
  'must be a non-extractable Ed25519 private CryptoKey that can sign',
);

/** The public half, kept as a key too so it can be used without re-importing the JWK. */
const PublicVerifyKey = z.custom<CryptoKey>((k) => k instanceof CryptoKey && k.type === 'public' && k.algorithm.name === 'Ed25519', 'must be an Ed25519 public CryptoKey');

/** Steward's key for one site: each site sees its own key, so no two sites can link the person by it. */
export const StoredAgentKey = z.object({
  origin: z.string().url().max(2048),
  private_key: PrivateSigningKey,
  public_key: PublicVerifyKey,
  public_jwk: AgentPublicJwk,
  thumbprint: Thumbprint,
  created_at: z.int().nonnegative(),
});
export type StoredAgentKey = z.infer<typeof StoredAgentKey>;

/**
 * One site's grant: the site's token for Steward's agents (a secret: IndexedDB only, never
 * chrome.storage, the panel, a content script or an agent) and the contract it was granted under,
 * so the panel can list the site and the worker can reach its endpoints after a restart.
 */
export const StoredSiteGrant = z.object({
  origin: z.string().url().max(2048),
  contract_url: z.string().url().max(2048),
  contract: AgentContract,
  grant: TokenGrant,
  granted_at: z.int().nonnegative(),
  ended: z.object({ at: z.int().nonnegative(), reason: z.string().max(64), message: z.string().max(1024) }).optional(),
});
export type StoredSiteGrant = z.infer<typeof StoredSiteGrant>;
