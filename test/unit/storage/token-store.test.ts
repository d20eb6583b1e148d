import { describe, expect, it } from 'vitest';
import { DelegatedAgentToken } from '../../../src/protocol/token.ts';
import { TokenStore, tokenStatus, type TokenEvent } from '../../../src/storage/token-store.ts';
import { FakeClock, freshFactory, openDb } from './helpers.ts';

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
    const t = await store.mint(base);
    expect(DelegatedAgentToken.parse(t)).toEqual(t);
    expect(t).toMatchObject({ token_type: 'delegated_agent_token', agent_id: 'agent:copilot', principal: 'user:local', payment: false, issued_at: '2026-08-03T11:40:00.000Z', expires_at: '2026-08-03T11:55:00.000Z' });
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
    const t = await store.mint(base);
    clock.advance(15 * 60_000 - 1);
    expect((await store.check(t.token_id)).ok).toBe(true);
    clock.advance(1);
    expect(await store.check(t.token_id)).toEqual({ ok: false, reason: 'expired' });
  });

  it('revocation is permanent, survives a restart, and keeps the first revocation time', async () => {
    const clock = new FakeClock();
    const factory = freshFactory();
    const store = new TokenStore(await openDb(factory), clock.now);
    const t = await store.mint(base);
    const revoked = await store.revoke(t.token_id);
    expect(revoked?.revoked_at).toBe('2026-08-03T11:40:00.000Z');
    clock.advance(1000);
    expect((await store.revoke(t.token_id))?.revoked_at).toBe('2026-08-03T11:40:00.000Z');
    expect(await store.check(t.token_id)).toEqual({ ok: false, reason: 'revoked' });
    const restarted = new TokenStore(await openDb(factory), clock.now);
    expect(await restarted.check(t.token_id)).toEqual({ ok: false, reason: 'revoked' });
    expect(await store.revoke('tok_nope')).toBeUndefined();
  });

  it('revokes every token of an agent', async () => {
    const store = new TokenStore(await openDb());
    const a = await store.mint(base);
    const b = await store.mint(base);
    const other = await store.mint({ ...base, agent_id: 'agent:other' });
    expect(await store.revokeAgent('agent:copilot')).toBe(2);
    expect((await store.check(a.token_id)).ok).toBe(false);
    expect((await store.check(b.token_id)).ok).toBe(false);
    expect((await store.check(other.token_id)).ok).toBe(true);
  });

  it('unknown ids are refused; expired tokens are purged and then unknown', async () => {
    const clock = new FakeClock();
    const store = new TokenStore(await openDb(), clock.now);
    expect(await store.check('tok_unknown')).toEqual({ ok: false, reason: 'unknown' });
    const short = await store.mint({ ...base, ttl_ms: 1000 });
    const long = await store.mint(base);
    clock.advance(1000);
    expect(await store.purgeExpired()).toBe(1);
    expect(await store.check(short.token_id)).toEqual({ ok: false, reason: 'unknown' });
    expect((await store.check(long.token_id)).ok).toBe(true);
  });

  it('a tampered record is never trusted', async () => {
    const db = await openDb();
    const store = new TokenStore(db);
    const t = await store.mint(base);
    await db.put('tokens', { ...t, scope: ['not a scope'] });
    const fresh = new TokenStore(db);
    expect(await fresh.check(t.token_id)).toEqual({ ok: false, reason: 'corrupt' });
  });

  it('tokenStatus prefers revoked over expired', () => {
    const t = DelegatedAgentToken.parse({ token_type: 'delegated_agent_token', token_id: 'tok_1', agent_id: 'agent:a', principal: 'user:local', scope: ['a:b'], resource_scope: '*', origins: ['http://x.test'], payment: false, issued_at: '2026-01-01T00:00:00Z', expires_at: '2026-01-02T00:00:00Z', revocable_at: '/r', revoked_at: '2026-01-01T01:00:00Z' });
    expect(tokenStatus(t, Date.parse('2026-01-03T00:00:00Z'))).toBe('revoked');
  });
});
