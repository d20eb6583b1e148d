import { DelegatedAgentToken, MAX_TOKEN_TTL_MS, TokenSecret, type ScopeEntry, type TokenId } from '../protocol/token.ts';
import type { AgentId, Origin, UserId } from '../protocol/primitives.ts';
import type { ResourceScope } from '../protocol/resource.ts';
import { iso, systemClock, type Clock } from '../base/clock.ts';
import { sha256Hex } from '../base/hash.ts';
import { newId } from '../base/ids.ts';
import type { StewardDb } from './db.ts';
import { CorruptRecordError, readValid } from './read.ts';
import { StoredToken, newTokenSecret, publicToken } from './token-record.ts';

/** Where Steward's own tokens are revoked: the side panel's token view (a path, per the schema). */
const LOCAL_REVOKE_PATH = '/steward/v1/tokens/revoke';

export interface MintRequest {
  agent_id: AgentId;
  principal?: UserId;
  scope: ScopeEntry[];
  resource_scope: ResourceScope;
  origins: Origin[];
  payment?: boolean;
  ttl_ms: number;
  label?: string;
  /** A paired MCP client's organisation key, as its SHA-256 (pairing sets it; the panel never does). */
  client_key_sha256?: string;
}

/** A freshly minted token and its secret: the only moment the secret exists outside the agent. */
export interface MintedToken {
  token: DelegatedAgentToken;
  secret: TokenSecret;
}

export type TokenStatus = 'active' | 'expired' | 'revoked';
/** A refusal names the token (public id) when one was found, expired or revoked, so the audit can say which. */
export type TokenCheck = { ok: true; token: DelegatedAgentToken } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'corrupt'; token_id?: TokenId };
export type TokenEvent = { kind: 'minted' | 'revoked' | 'purged'; token: DelegatedAgentToken };

export function tokenStatus(token: DelegatedAgentToken, now: number): TokenStatus {
  if (token.revoked_at !== undefined) return 'revoked';
  return Date.parse(token.expires_at) <= now ? 'expired' : 'active';
}

/**
 * Delegated agent tokens (DESIGN §4), one record per token id in IndexedDB. Only the service
 * worker holds this store. The id is public (records, audit, panel); an agent authenticates with
 * the secret shown once at minting, of which only the SHA-256 is stored. Revocation is permanent:
 * nothing un-sets `revoked_at`, and ids are random, so a revoked id never comes back.
 */
export class TokenStore {
  /** Read-through caches: the service worker is the only writer, so they stay exact. */
  private readonly cache = new Map<string, DelegatedAgentToken>();
  private readonly idBySecretHash = new Map<string, string>();

  constructor(
    private readonly db: StewardDb,
    private readonly clock: Clock = systemClock,
    private readonly onEvent?: (event: TokenEvent) => void | Promise<void>,
  ) {}

  async mint(req: MintRequest): Promise<MintedToken> {
    if (!(req.ttl_ms > 0 && req.ttl_ms <= MAX_TOKEN_TTL_MS)) throw new RangeError(`ttl_ms must be in (0, ${MAX_TOKEN_TTL_MS}]`);
    const now = this.clock();
    const token = DelegatedAgentToken.parse({
      token_type: 'delegated_agent_token',
      token_id: newId('tok_'),
      agent_id: req.agent_id,
      principal: req.principal ?? 'user:local',
      scope: req.scope,
      resource_scope: req.resource_scope,
      origins: req.origins,
      payment: req.payment ?? false,
      issued_at: iso(now),
      expires_at: iso(now + req.ttl_ms),
      revocable_at: LOCAL_REVOKE_PATH,
      ...(req.label ? { label: req.label } : {}),
      ...(req.client_key_sha256 ? { client_key_sha256: req.client_key_sha256 } : {}),
    });
    const secret = newTokenSecret();
    const secret_hash = await sha256Hex(secret);
    await this.db.add('tokens', StoredToken.parse({ ...token, secret_hash }));
    this.cache.set(token.token_id, token);
    this.idBySecretHash.set(secret_hash, token.token_id);
    await this.onEvent?.({ kind: 'minted', token });
    return { token, secret };
  }

  /** The public token by id (never the secret's hash). */
  async get(tokenId: string): Promise<DelegatedAgentToken | undefined> {
    const cached = this.cache.get(tokenId);
    if (cached) return cached;
    const raw = await this.db.get('tokens', tokenId);
    if (raw === undefined) return undefined;
    return this.remember(readValid(StoredToken, raw, 'tokens', tokenId));
  }

  /**
   * Whether the token with this PUBLIC id may be used now: for Steward's own re-checks of an
   * action already authenticated (before dispatch, in recovery). Never for what an agent presents.
   */
  async check(tokenId: string): Promise<TokenCheck> {
    return this.checked(() => this.get(tokenId));
  }

  /**
   * What an agent presents: its secret, found by SHA-256 (the raw secret is never a key), and
   * whether that token may be used now. A public id, a hash or anything else is `unknown`.
   */
  async authenticate(secret: string): Promise<TokenCheck> {
    if (!TokenSecret.safeParse(secret).success) return { ok: false, reason: 'unknown' };
    const hash = await sha256Hex(secret);
    return this.checked(async () => {
      const id = this.idBySecretHash.get(hash);
      if (id !== undefined) return this.get(id);
      const raw = await this.db.getFromIndex('tokens', 'by_secret_hash', hash);
      if (raw === undefined) return undefined;
      const record = readValid(StoredToken, raw, 'tokens', raw.token_id);
      // Re-validated, and compared by hash once more: the index is only a way to find it.
      return record.secret_hash === hash ? this.remember(record) : undefined;
    });
  }

  async list(agentId?: AgentId): Promise<DelegatedAgentToken[]> {
    const raws = agentId ? await this.db.getAllFromIndex('tokens', 'by_agent', agentId) : await this.db.getAll('tokens');
    return raws.map((raw) => publicToken(readValid(StoredToken, raw, 'tokens', raw?.token_id)));
  }

  private remember(record: StoredToken): DelegatedAgentToken {
    const token = publicToken(record);
    this.cache.set(token.token_id, token);
    if (record.secret_hash !== undefined) this.idBySecretHash.set(record.secret_hash, token.token_id);
    return token;
  }

  private async checked(find: () => Promise<DelegatedAgentToken | undefined>): Promise<TokenCheck> {
    let token: DelegatedAgentToken | undefined;
    try {
      token = await find();
    } catch (error) {
      if (error instanceof CorruptRecordError) return { ok: false, reason: 'corrupt' };
      throw error;
    }
    if (!token) return { ok: false, reason: 'unknown' };
    const status = tokenStatus(token, this.clock());
    return status === 'active' ? { ok: true, token } : { ok: false, reason: status, token_id: token.token_id };
  }

  /** Permanent. Revoking twice keeps the first time; an unknown id returns undefined. */
  async revoke(tokenId: string): Promise<DelegatedAgentToken | undefined> {
    const tx = this.db.transaction('tokens', 'readwrite');
    const raw = await tx.store.get(tokenId);
    if (raw === undefined) {
      await tx.done;
      return undefined;
    }
    const record = readValid(StoredToken, raw, 'tokens', tokenId);
    if (record.revoked_at !== undefined) {
      await tx.done;
      return publicToken(record);
    }
    const stored = StoredToken.parse({ ...record, revoked_at: iso(Math.max(this.clock(), Date.parse(record.issued_at))) });
    await tx.store.put(stored);
    await tx.done;
    const revoked = this.remember(stored);
    await this.onEvent?.({ kind: 'revoked', token: revoked });
    return revoked;
  }

  /** Revokes every token of one agent (unpairing an MCP client). */
  async revokeAgent(agentId: AgentId): Promise<number> {
    let n = 0;
    for (const t of await this.list(agentId)) if (t.revoked_at === undefined && (await this.revoke(t.token_id))) n++;
    return n;
  }

  /**
   * Deletes expired tokens (DESIGN §7: expired tokens are never kept). A deleted id then looks
   * up as unknown, which is refused just the same.
   */
  async purgeExpired(): Promise<number> {
    const now = this.clock();
    const expired = (await this.list()).filter((t) => Date.parse(t.expires_at) <= now);
    for (const t of expired) {
      await this.db.delete('tokens', t.token_id);
      this.cache.delete(t.token_id);
      for (const [hash, id] of this.idBySecretHash) if (id === t.token_id) this.idBySecretHash.delete(hash);
      await this.onEvent?.({ kind: 'purged', token: t });
    }
    return expired.length;
  }
}
