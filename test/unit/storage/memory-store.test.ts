import { describe, expect, it } from 'vitest';
import { MemoryStore, type MemoryDraft } from '../../../src/storage/memory-store.ts';
import { FakeClock, freshFactory, openDb } from './helpers.ts';

/** The documented limit of the module under test, written out so a change to it fails here. */
const DEFAULT_SNAPSHOT_TTL_MS = 15 * 60 * 1000;

const order = { type: 'order', id: 'ORD-1024' };
const durable = (payload: Record<string, unknown>, extra: Partial<MemoryDraft> = {}): MemoryDraft => ({ layer: 'durable', kind: 'resource_id', resource: order, payload, ...extra }) as MemoryDraft;

describe('MemoryStore', () => {
  it.each([
    [{ tabId: 7 }, 'tab_id'],
    [{ where: { css_selector: '#cancel' } }, 'dom_selector'],
    [{ scrollY: 300 }, 'scroll_position'],
    [{ outerHTML: '<div>' }, 'transient_page_state'],
    [{ token: 'tok_abc' }, 'expired_token'],
    [{ state: 'awaiting_payment' }, 'mutable_conclusion_as_current'],
  ])('refuses to persist %j (%s)', async (payload, category) => {
    const store = new MemoryStore(await openDb());
    const w = await store.remember(durable(payload));
    expect(w.ok).toBe(false);
    if (w.ok) return;
    expect(w.error.code).toBe('INVALID_INPUT');
    expect(w.error.issues.map((i) => i.message).join(' ')).toContain(category);
    expect(await store.recall(order)).toEqual([]);
  });

  it('a state snapshot must be history only, and gets a TTL when none is given', async () => {
    const clock = new FakeClock();
    const store = new MemoryStore(await openDb(), clock.now);
    const bad = await store.remember(durable({ state: 'awaiting_payment' }, { kind: 'state_snapshot', state_version: 17 } as Partial<MemoryDraft>));
    expect(bad.ok).toBe(false);
    const ok = await store.remember(durable({ state: 'awaiting_payment' }, { kind: 'state_snapshot', state_version: 17, history_only: true } as Partial<MemoryDraft>));
    expect(ok.ok && ok.record.ttl_ms).toBe(DEFAULT_SNAPSHOT_TTL_MS);
    clock.advance(DEFAULT_SNAPSHOT_TTL_MS - 1);
    expect((await store.recall(order))[0]?.expired).toBe(false);
    clock.advance(1);
    expect((await store.recall(order))[0]?.expired).toBe(true);
  });

  it('durable memory survives a restart; session memory does not', async () => {
    const factory = freshFactory();
    const a = new MemoryStore(await openDb(factory));
    await a.remember(durable({ url_hint: 'http://localhost:4100/orders/ORD-1024' }));
    await a.remember({ layer: 'session', kind: 'goal', session_id: 's1', payload: { text: 'cancel the order' } });
    expect(a.session('s1')).toHaveLength(1);
    const b = new MemoryStore(await openDb(factory));
    expect((await b.recall(order)).map((m) => m.record.payload.url_hint)).toEqual(['http://localhost:4100/orders/ORD-1024']);
    expect(b.session('s1')).toEqual([]);
  });

  it('session memory may hold working details, and drops them past their TTL', async () => {
    const clock = new FakeClock();
    const store = new MemoryStore(await openDb(), clock.now);
    const w = await store.remember({ layer: 'session', kind: 'resource_in_hand', session_id: 's1', ttl_ms: 1000, payload: { state: 'awaiting_payment' } });
    expect(w.ok).toBe(true);
    expect(store.session('s1')).toHaveLength(1);
    clock.advance(1000);
    expect(store.session('s1')).toEqual([]);
  });

  it('recalls newest first and purges old records', async () => {
    const clock = new FakeClock();
    const store = new MemoryStore(await openDb(), clock.now);
    await store.remember(durable({ url_hint: 'http://a.test/1' }));
    clock.advance(1000);
    await store.remember(durable({ url_hint: 'http://a.test/2' }));
    expect((await store.recall(order)).map((m) => m.record.payload.url_hint)).toEqual(['http://a.test/2', 'http://a.test/1']);
    expect(await store.purgeBefore(clock.t)).toBe(1);
    expect((await store.recall(order)).map((m) => m.record.payload.url_hint)).toEqual(['http://a.test/2']);
  });

  it('stores the valid drafts of a batch and reports the refused ones', async () => {
    const store = new MemoryStore(await openDb());
    const writes = await store.rememberAll([durable({ url_hint: 'http://a.test/1' }), durable({ tab_id: 3 })]);
    expect(writes.map((w) => w.ok)).toEqual([true, false]);
    expect(await store.recall(order)).toHaveLength(1);
  });
});
