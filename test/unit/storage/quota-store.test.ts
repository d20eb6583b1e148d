import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/pipeline/policy/quota.ts';
import { QuotaStore } from '../../../src/storage/quota-store.ts';
import { openStewardDb } from '../../../src/storage/db.ts';
import { DB_VERSION, freshFactory, openDb } from './helpers.ts';

const LIMITS = () => ({ per_minute: 2, per_day: 5 });
const T = Date.parse('2026-08-03T11:40:00Z');

/** A limiter as a (re)started service worker builds it: counters saved on each count, restored at start. */
async function limiterOn(store: QuotaStore) {
  const limiter = new RateLimiter(LIMITS, (id, u) => store.save(id, u));
  limiter.restore(await store.all());
  return limiter;
}

describe('rate limit and quota counters survive a service-worker restart', () => {
  it('a restarted worker refuses what the old one would have refused', async () => {
    const db = await openDb();
    const before = new QuotaStore(db);
    const first = await limiterOn(before);
    expect(first.take('agent:a', T).ok).toBe(true);
    expect(first.take('agent:a', T + 1000).ok).toBe(true);
    await before.flushed();

    // The worker is stopped; a new one opens the same database.
    const second = await limiterOn(new QuotaStore(db));
    expect(second.take('agent:a', T + 2000)).toMatchObject({ ok: false, limit: 'per_minute', retry_after_ms: 58_000 });
    expect(second.take('agent:b', T + 2000).ok).toBe(true);
    // The sliding window still slides.
    expect(second.take('agent:a', T + 61_000).ok).toBe(true);
  });

  it('the daily quota carries over too, and a corrupt record is skipped, not trusted or fatal', async () => {
    const factory = freshFactory();
    const db = await openStewardDb({ factory });
    const store = new QuotaStore(db);
    const limiter = await limiterOn(store);
    for (let i = 0; i < 5; i++) expect(limiter.take('agent:a', T + i * 61_000).ok).toBe(true);
    await store.flushed();
    await db.put('quota', { agent_id: 'agent:broken', recent: 'lots', day_start: 0, day_count: -1 } as never);

    const again = await limiterOn(new QuotaStore(db));
    expect(again.take('agent:a', T + 10 * 61_000)).toMatchObject({ ok: false, limit: 'per_day' });
    expect(again.take('agent:broken', T).ok).toBe(true);
  });
});

describe('upgrading a version-1 database', () => {
  it('adds the quota store and keeps what was stored', async () => {
    const factory = freshFactory();
    await new Promise<void>((resolve, reject) => {
      const open = factory.open('steward', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('tokens', { keyPath: 'token_id' }).put({ token_id: 'tok_old', agent_id: 'agent:a' });
      open.onsuccess = () => (open.result.close(), resolve());
      open.onerror = () => reject(open.error);
    });
    const db = await openStewardDb({ factory });
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames]).toContain('quota');
    expect(await db.get('tokens', 'tok_old')).toMatchObject({ agent_id: 'agent:a' });
  });
});
