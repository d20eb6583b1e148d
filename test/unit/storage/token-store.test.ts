import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/base/hash.ts';
import { DelegatedAgentToken, TokenSecret } from '../../../src/protocol/token.ts';
import { openStewardDb } from '../../../src/storage/db.ts';
import { TokenStore, tokenStatus, type TokenEvent } from '../../../src/storage/token-store.ts';
import { DB_NAME, FakeClock, freshFactory, openDb } from './helpers.ts';

const base = {
  agent_id: 'agent:copilot' as const,
  scope: ['orders:read', 'orders:cancel'],
  resource_scope: 'order:ORD-1024',
  origins: ['http://localhost:4100'],
  ttl_ms: 15 * 60_000,
};

describe('TokenStore', () => {
  it('mints a token with the DESIGN fields, stored and found by id', async () => {
    const clock = new FakeClock();
    const events: TokenEvent[] = [];
    const store = new TokenStore(await openDb(), clock.now, (e) => void events.push(e));
    const { token: t } = await store.mint(base);
    expect(DelegatedAgentToken.parse(t)).toEqual(t);
    expect(t).toMatchObject({
      token_type: 'delegated_agent_token',
      agent_id: 'agent:copilot',
      principal: 'user:local',
      payment: false,
      issued_at: '2026-08-03T11:40:00.000Z',
      expires_at: '2026-08-03T11:55:00.000Z',
    });
    expect(t.token_id).toMatch(/^tok_[0-9a-f]{24}$/);
    expect(await store.check(t.token_id)).toEqual({ ok: true, token: t });
    expect(events.map((e) => e.kind)).toEqual(['minted']);
  });

  it('refuses malformed grants and absurd lifetimes', async () => {
    const store = new TokenStore(await openDb());
    await expect(store.mint({ ...base, scope: ['orders.cancel'] })).rejects.toThrow();
    await expect(store.mint({ ...base, origins: ['http://localhost:4100/path'] })).rejects.toThrow();
    await expect(store.mint({ ...base, ttl_ms: 0 })).rejects.toThrow(RangeError);
  });

  it('lists tokens per agent', async () => {
    const store = new TokenStore(await openDb());
    await store.mint(base);
    await store.mint({ ...base, agent_id: 'agent:mcp-ide' });
    await store.mint(base);
    expect((await store.list('agent:copilot')).length).toBe(2);
    expect((await store.list('agent:mcp-ide')).map((t) => t.agent_id)).toEqual(['agent:mcp-ide']);
    expect((await store.list()).length).toBe(3);
  });

  it('expires: a token past expires_at is refused', async () => {
    const clock = new FakeClock();
    const store = new TokenStore(await openDb(), clock.now);
    const { token: t } = await store.mint(base);
    clock.advance(15 * 60_000 - 1);
    expect((await store.check(t.token_id)).ok).toBe(true);
    clock.advance(1);
    expect(await store.check(t.token_id)).toEqual({ ok: false, reason: 'expired', token_id: t.token_id });
  });

  it('revocation is permanent, survives a restart, and keeps the first revocation time', async () => {
    const clock = new FakeClock();
    const factory = freshFactory();
    const store = new TokenStore(await openDb(factory), clock.now);
    const { token: t } = await store.mint(base);
    const revoked = await store.revoke(t.token_id);
    expect(revoked?.revoked_at).toBe('2026-08-03T11:40:00.000Z');
    expect(revoked).not.toHaveProperty('secret_hash');
    clock.advance(1000);
    expect((await store.revoke(t.token_id))?.revoked_at).toBe('2026-08-03T11:40:00.000Z');
    expect(await store.check(t.token_id)).toEqual({ ok: false, reason: 'revoked', token_id: t.token_id });
    const restarted = new TokenStore(await openDb(factory), clock.now);
    expect(await restarted.check(t.token_id)).toEqual({ ok: false, reason: 'revoked', token_id: t.token_id });
    expect(await store.revoke('tok_nope')).toBeUndefined();
  });

  it('revokes every token of an agent', async () => {
    const store = new TokenStore(await openDb());
    const { token: a } = await store.mint(base);
    const { token: b } = await store.mint(base);
    const { token: other } = await store.mint({ ...base, agent_id: 'agent:other' });
    expect(await store.revokeAgent('agent:copilot')).toBe(2);
    expect((await store.check(a.token_id)).ok).toBe(false);
    expect((await store.check(b.token_id)).ok).toBe(false);
    expect((await store.check(other.token_id)).ok).toBe(true);
  });

  it('unknown ids are refused; expired tokens are purged and then unknown', async () => {
    const clock = new FakeClock();
    const store = new TokenStore(await openDb(), clock.now);
    expect(await store.check('tok_unknown')).toEqual({ ok: false, reason: 'unknown' });
    const { token: short } = await store.mint({ ...base, ttl_ms: 1000 });
    const { token: long } = await store.mint(base);
    clock.advance(1000);
    expect(await store.purgeExpired()).toBe(1);
    expect(await store.check(short.token_id)).toEqual({ ok: false, reason: 'unknown' });
    expect((await store.check(long.token_id)).ok).toBe(true);
  });

  it('a tampered record is never trusted', async () => {
    const db = await openDb();
    const store = new TokenStore(db);
    const { token: t, secret } = await store.mint(base);
    const stored = (await db.get('tokens', t.token_id))!;
    await db.put('tokens', { ...stored, scope: ['not a scope'] });
    const fresh = new TokenStore(db);
    expect(await fresh.check(t.token_id)).toEqual({ ok: false, reason: 'corrupt' });
    expect(await new TokenStore(db).authenticate(secret)).toEqual({ ok: false, reason: 'corrupt' });
  });

  it('tokenStatus prefers revoked over expired', () => {
    const t = DelegatedAgentToken.parse({
      token_type: 'delegated_agent_token',
      token_id: 'tok_1',
      agent_id: 'agent:a',
      principal: 'user:local',
      scope: ['a:b'],
      resource_scope: '*',
      origins: ['http://x.test'],
      payment: false,
      issued_at: '2026-01-01T00:00:00Z',
      expires_at: '2026-01-02T00:00:00Z',
      revocable_at: '/r',
      revoked_at: '2026-01-01T01:00:00Z',
    });
    expect(tokenStatus(t, Date.parse('2026-01-03T00:00:00Z'))).toBe('revoked');
  });
});

/** Every string anywhere in a value (keys included): what someone holding a copy could try. */
function strings(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, out.add(k));
  return out;
}

describe('TokenStore: the secret is the credential, the id is public', () => {
  it('authenticates the secret shown at minting, and nothing else: not the id, not the stored hash', async () => {
    const db = await openDb();
    const store = new TokenStore(db);
    const { token, secret } = await store.mint(base);
    expect(TokenSecret.parse(secret)).toBe(secret);
    expect(secret).not.toContain(token.token_id.slice(4));
    expect(await store.authenticate(secret)).toEqual({ ok: true, token });
    // After a restart (no cache) it is found by its hash in the database.
    expect(await new TokenStore(db).authenticate(secret)).toEqual({ ok: true, token });
    const stored = (await db.get('tokens', token.token_id))!;
    expect(stored.secret_hash).toBe(await sha256Hex(secret));
    for (const hostile of [token.token_id, stored.secret_hash!, `stw_secret_${'A'.repeat(43)}`, secret.slice(0, -1), `${secret} `, '']) {
      expect(await store.authenticate(hostile)).toEqual({ ok: false, reason: 'unknown' });
      expect(await new TokenStore(db).authenticate(hostile)).toEqual({ ok: false, reason: 'unknown' });
    }
  });

  it('a copy of the tokens store holds no working credential', async () => {
    const clock = new FakeClock();
    const db = await openDb();
    const store = new TokenStore(db, clock.now);
    const minted = [await store.mint(base), await store.mint({ ...base, agent_id: 'agent:mcp-ide', scope: ['*:*'], resource_scope: '*' })];
    await store.revoke(minted[0]!.token.token_id);
    const copy = await db.getAll('tokens');
    const candidates = strings(copy);
    for (const { secret } of minted) expect(candidates.has(secret)).toBe(false);
    expect(JSON.stringify(copy)).not.toMatch(/stw_secret_/);
    // Tried as they are against the live store (and a fresh one): none authenticates.
    for (const candidate of candidates) {
      expect((await store.authenticate(candidate)).ok).toBe(false);
      expect((await new TokenStore(db, clock.now).authenticate(candidate)).ok).toBe(false);
    }
    // The one still valid works with its secret.
    expect((await store.authenticate(minted[1]!.secret)).ok).toBe(true);
  });

  it('a revoked or expired token is refused by secret too, naming its public id', async () => {
    const clock = new FakeClock();
    const store = new TokenStore(await openDb(), clock.now);
    const a = await store.mint(base);
    const b = await store.mint({ ...base, ttl_ms: 1000 });
    await store.revoke(a.token.token_id);
    expect(await store.authenticate(a.secret)).toEqual({ ok: false, reason: 'revoked', token_id: a.token.token_id });
    clock.advance(1000);
    expect(await store.authenticate(b.secret)).toEqual({ ok: false, reason: 'expired', token_id: b.token.token_id });
    await store.purgeExpired();
    expect(await store.authenticate(b.secret)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('a record whose hash was stripped is not trusted (re-validated on read)', async () => {
    const db = await openDb();
    const { token } = await new TokenStore(db).mint(base);
    await db.put('tokens', { ...token } as never);
    expect(await new TokenStore(db).check(token.token_id)).toEqual({ ok: false, reason: 'corrupt' });
  });

  it('upgrading a v2 database revokes its tokens: their id was the credential and is in every record', async () => {
    const factory = freshFactory();
    const old = {
      token_type: 'delegated_agent_token',
      token_id: 'tok_0123456789abcdef01234567',
      agent_id: 'agent:copilot',
      principal: 'user:local',
      scope: ['orders:cancel'],
      resource_scope: 'order:ORD-1024',
      origins: ['http://localhost:4100'],
      payment: false,
      issued_at: '2026-08-03T11:00:00.000Z',
      expires_at: '2099-01-01T00:00:00.000Z',
      revocable_at: '/steward/v1/tokens/revoke',
    };
    await new Promise<void>((resolve, reject) => {
      const open = factory.open(DB_NAME, 2);
      open.onupgradeneeded = () => {
        const tokens = open.result.createObjectStore('tokens', { keyPath: 'token_id' });
        tokens.createIndex('by_agent', 'agent_id');
        tokens.put(old);
      };
      open.onsuccess = () => (open.result.close(), resolve());
      open.onerror = () => reject(open.error);
    });
    const store = new TokenStore(await openStewardDb({ factory }));
    expect(await store.authenticate(old.token_id)).toEqual({ ok: false, reason: 'unknown' });
    expect(await store.check(old.token_id)).toEqual({ ok: false, reason: 'revoked', token_id: old.token_id });
    expect((await store.list()).map((t) => [t.token_id, tokenStatus(t, Date.now())])).toEqual([[old.token_id, 'revoked']]);
  });
});
