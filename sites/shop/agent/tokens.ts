/**
 * Delegated agent tokens: a JWT the shop signs (EdDSA, its own key made at start) bound to the
 * agent's public key (`cnf.jkt`), plus a server-side record so the person can revoke it.
 */
import { SignJWT, calculateJwkThumbprint, errors as joseErrors, generateKeyPair, jwtVerify } from 'jose';
import { z } from 'zod';
import type { AgentPublicJwk, TokenGrant, TokenRequest } from '../../../src/protocol/agent-contract.ts';
import { MAX_TOKEN_TTL_S } from './contract.ts';
import { authRefusal } from './errors.ts';

const PERSON = { subject: 'user:jordan', name: 'Jordan Lee' } as const;
/** Bound on stored records, so a flood of grants cannot grow memory without limit. */
const MAX_TOKENS = 1000;

export interface TokenRecord {
  token_id: string;
  agent_name: string;
  agent_key: AgentPublicJwk;
  key_thumbprint: string;
  scopes: string[];
  resource_scope: string[];
  payment: boolean;
  issued_at: number;
  expires_at: number;
  revoked: boolean;
}

/** The claims the shop itself put in; re-checked on every use all the same. */
const Claims = z.object({
  jti: z.string().min(1).max(128),
  sub: z.literal(PERSON.subject),
  scope: z.string().max(4096),
  resource_scope: z.array(z.string().max(300)).max(64),
  payment: z.boolean(),
  cnf: z.object({ jkt: z.string().max(64) }),
});

export async function thumbprintOf(jwk: AgentPublicJwk): Promise<string> {
  return calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }, 'sha256');
}

export class TokenIssuer {
  private readonly shopKey = generateKeyPair('Ed25519');
  private records = new Map<string, TokenRecord>();

  constructor(private readonly now: () => number) {}

  reset(): void {
    this.records.clear();
  }

  list(): TokenRecord[] {
    return [...this.records.values()].map((r) => structuredClone(r));
  }

  async issue(request: TokenRequest, origin: string): Promise<{ grant: TokenGrant; record: TokenRecord }> {
    const { privateKey } = await this.shopKey;
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresAt = issuedAt + Math.min(request.expires_in_s, MAX_TOKEN_TTL_S);
    const record: TokenRecord = {
      token_id: `tok_${crypto.randomUUID()}`,
      agent_name: request.agent_name,
      agent_key: request.agent_key,
      key_thumbprint: await thumbprintOf(request.agent_key),
      scopes: [...new Set(request.scopes)],
      resource_scope: [...new Set(request.resource_scope)],
      payment: request.payment,
      issued_at: issuedAt,
      expires_at: expiresAt,
      revoked: false,
    };
    const token = await new SignJWT({ scope: record.scopes.join(' '), resource_scope: record.resource_scope, payment: record.payment, cnf: { jkt: record.key_thumbprint } })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .setIssuer(origin)
      .setAudience(origin)
      .setSubject(PERSON.subject)
      .setJti(record.token_id)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(privateKey);
    if (this.records.size >= MAX_TOKENS) this.records.delete(this.records.keys().next().value as string);
    this.records.set(record.token_id, record);
    const grant: TokenGrant = {
      token_type: 'Bearer',
      token,
      token_id: record.token_id,
      scopes: record.scopes,
      resource_scope: record.resource_scope,
      payment: record.payment,
      expires_at: new Date(expiresAt * 1000).toISOString(),
      key_thumbprint: record.key_thumbprint,
      granted_by: PERSON.name,
    };
    return { grant, record: structuredClone(record) };
  }

  /** The record behind `Authorization: Bearer …`, or a 401 saying why not. */
  async authenticate(authorization: string | undefined, origin: string): Promise<TokenRecord> {
    if (!authorization) throw authRefusal('token_missing', 'Send the delegated token as "Authorization: Bearer <token>".');
    const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(authorization.trim());
    if (!match?.[1] || match[1].length > 8192) throw authRefusal('token_malformed', 'The Authorization header is not "Bearer <JWT>".');
    const { publicKey } = await this.shopKey;
    let claims: z.infer<typeof Claims>;
    try {
      const { payload } = await jwtVerify(match[1], publicKey, { issuer: origin, audience: origin, algorithms: ['EdDSA'], currentDate: new Date(this.now()) });
      claims = Claims.parse(payload);
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw authRefusal('token_expired', 'The token has expired; ask the person to connect again.');
      throw authRefusal('token_malformed', 'The token is not one this shop issued for this origin.');
    }
    const record = this.records.get(claims.jti);
    if (!record || record.revoked) throw authRefusal('token_revoked', 'The person revoked this token (or the shop no longer holds it); ask them to connect again.');
    // The record, not the JWT, is the truth (same values unless the record was revoked or reset).
    if (record.key_thumbprint !== claims.cnf.jkt) throw authRefusal('token_malformed', 'The token does not match the shop’s record of it.');
    if (record.expires_at * 1000 <= this.now()) throw authRefusal('token_expired', 'The token has expired; ask the person to connect again.');
    return structuredClone(record);
  }

  /** True when it was live and is now revoked. */
  revoke(tokenId: string): boolean {
    const record = this.records.get(tokenId);
    if (!record || record.revoked) return false;
    record.revoked = true;
    return true;
  }

  /** The public keys of the agents the shop enrolled, for the key directory. */
  enrolledKeys(): Record<string, unknown>[] {
    const byThumbprint = new Map<string, Record<string, unknown>>();
    for (const r of this.records.values()) {
      if (!r.revoked) byThumbprint.set(r.key_thumbprint, { kty: r.agent_key.kty, crv: r.agent_key.crv, x: r.agent_key.x, kid: r.key_thumbprint, alg: 'EdDSA', use: 'sig' });
    }
    return [...byThumbprint.values()];
  }
}
