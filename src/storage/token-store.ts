import { DelegatedAgentToken, type ScopeEntry } from '../protocol/token.ts';
import type { AgentId, Origin, UserId } from '../protocol/primitives.ts';
import type { ResourceScope } from '../protocol/resource.ts';
import { iso, systemClock, type Clock } from '../pipeline/clock.ts';
import { newId } from '../pipeline/ids.ts';
import type { StewardDb } from './db.ts';
import { CorruptRecordError, readValid } from './read.ts';

/** Where Steward's own tokens are revoked: the side panel's token view (a path, per the schema). */
export const LOCAL_REVOKE_PATH = '/steward/v1/tokens/revoke';
/** Longest lifetime Steward mints; a longer grant must be renewed. */
export const MAX_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface MintRequest {
  agent_id: AgentId;
  principal?: UserId;
  scope: ScopeEntry[];
  resource_scope: ResourceScope;
  origins: Origin[];
  payment?: boolean;
  ttl_ms: number;
}

export type TokenStatus = 'active' | 'expired' | 'revoked';
export type TokenCheck = { ok: true; token: DelegatedAgentToken } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'corrupt' };
export type TokenEvent = { kind: 'minted' | 'revoked' | 'purged'; token: DelegatedAgentToken };

export function tokenStatus(token: DelegatedAgentToken, now: number): TokenStatus {
  if (token.revoked_at !== undefined) return 'revoked';
  return Date.parse(token.expires_at) <= now ? 'expired' : 'active';
}

/**
 * Delegated agent tokens (DESIGN §4), one record per token id in IndexedDB. Only the service
 * worker holds this store. Revocation is permanent: nothing un-sets `revoked_at`, and ids are
 * random, so a revoked id never comes back.
 */
export class TokenStore {
  /** Read-through cache: the service worker is the only writer, so it stays exact. */
  private readonly cache = new Map<string, DelegatedAgentToken>();

  constructor(
    private readonly db: StewardDb,
    private readonly clock: Clock = systemClock,
    private readonly onEvent?: (event: TokenEvent) => void | Promise<void>,
  ) {}

  async mint(req: MintRequest): Promise<DelegatedAgentToken> {
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
    });
    await this.db.add('tokens', token);
    this.cache.set(token.token_id, token);
    await this.onEvent?.({ kind: 'minted', token });
    return token;
  }

  async get(tokenId: string): Promise<DelegatedAgentToken | undefined> {
    const cached = this.cache.get(tokenId);
    if (cached) return cached;
    const raw = await this.db.get('tokens', tokenId);
    if (raw === undefined) return undefined;
    const token = readValid(DelegatedAgentToken, raw, 'tokens', tokenId);
    this.cache.set(tokenId, token);
    return token;
  }

  /** Looks a token up by id and says whether it may be used now. */
  async check(tokenId: string): Promise<TokenCheck> {
    let token: DelegatedAgentToken | undefined;
    try {
      token = await this.get(tokenId);
    } catch (error) {
      if (error instanceof CorruptRecordError) return { ok: false, reason: 'corrupt' };
      throw error;
    }
    if (!token) return { ok: false, reason: 'unknown' };
    const status = tokenStatus(token, this.clock());
    return status === 'active' ? { ok: true, token } : { ok: false, reason: status };
  }

  async list(agentId?: AgentId): Promise<DelegatedAgentToken[]> {
    const raws = agentId ? await this.db.getAllFromIndex('tokens', 'by_agent', agentId) : await this.db.getAll('tokens');
    return raws.map((raw) => readValid(DelegatedAgentToken, raw, 'tokens', raw?.token_id));
  }

  /** Permanent. Revoking twice keeps the first time; an unknown id returns undefined. */
  async revoke(tokenId: string): Promise<DelegatedAgentToken | undefined> {
    const tx = this.db.transaction('tokens', 'readwrite');
    const raw = await tx.store.get(tokenId);
    if (raw === undefined) {
      await tx.done;
      return undefined;
    }
    const token = readValid(DelegatedAgentToken, raw, 'tokens', tokenId);
    if (token.revoked_at !== undefined) {
      await tx.done;
      return token;
    }
    const revoked = DelegatedAgentToken.parse({ ...token, revoked_at: iso(Math.max(this.clock(), Date.parse(token.issued_at))) });
    await tx.store.put(revoked);
    await tx.done;
    this.cache.set(tokenId, revoked);
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
      await this.onEvent?.({ kind: 'purged', token: t });
    }
    return expired.length;
  }
}
