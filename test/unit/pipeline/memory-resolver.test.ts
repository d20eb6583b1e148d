import { describe, expect, it } from 'vitest';
import { MemoryResolver } from '../../../src/pipeline/memory-resolver.ts';
import { MemoryStore } from '../../../src/storage/memory-store.ts';
import { FakeClock, openDb } from '../storage/helpers.ts';
import { FakeShop, ORDER, harness, orderUrl } from './fakes.ts';

async function resolverWithOutcome(clock = new FakeClock()) {
  const shop = new FakeShop();
  const memory = new MemoryResolver(new MemoryStore(await openDb(), clock.now));
  await memory.recordOutcome({
    resource: ORDER,
    agent_id: 'agent:copilot',
    session_id: 's1',
    action_id: 'act_1',
    action: 'orders.view',
    outcome: 'confirmed',
    audit_id: 'audit_3',
    after: shop.observation('ORD-1024'),
  });
  return { shop, memory, clock };
}

describe('MemoryResolver', () => {
  it('records where the resource was (a hint), its state as history, the audit pointer, and the session step', async () => {
    const { memory } = await resolverWithOutcome();
    const recalled = await memory.store.recall(ORDER);
    expect(recalled.map((m) => m.record.kind).sort()).toEqual(['audit_reference', 'resource_id', 'state_snapshot']);
    expect(recalled.find((m) => m.record.kind === 'state_snapshot')!.record).toMatchObject({ history_only: true, state_version: 'fp-100011', payload: { state: 'awaiting_payment' } });
    expect(await memory.urlHints(ORDER)).toEqual([orderUrl('ORD-1024')]);
    expect(memory.store.session('s1').map((r) => r.kind)).toEqual(['step_done']);
  });

  it('on resume with an unchanged state inside the TTL, memory still holds', async () => {
    const { shop, memory } = await resolverWithOutcome();
    const a = await memory.resume(ORDER, async (r) => shop.observation(r.id));
    expect(a).toMatchObject({ history_only: false, reason: 'unchanged', replan: false, current: { state: 'awaiting_payment' } });
  });

  it('on resume after the state_version changed, memory is history only and the agent re-plans', async () => {
    const { shop, memory } = await resolverWithOutcome();
    shop.ship('ORD-1024');
    const a = await memory.resume(ORDER, async (r) => shop.observation(r.id));
    expect(a).toMatchObject({ history_only: true, reason: 'state_version_changed', replan: true, current: { state: 'shipped' } });
  });

  it('on resume past the snapshot’s TTL, memory is history only even if nothing changed', async () => {
    const { shop, memory, clock } = await resolverWithOutcome();
    clock.advance(15 * 60_000);
    expect(await memory.resume(ORDER, async (r) => shop.observation(r.id))).toMatchObject({ history_only: true, reason: 'ttl_expired', replan: true });
  });

  it('Pipeline.resume resolves the resource afresh through the navigator (never a stale tab)', async () => {
    const h = await harness();
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v' }, h.agent);
    h.shop.tabUrl = 'http://localhost:4100/';
    h.shop.ship('ORD-1024');
    const a = await h.pipeline.resume(ORDER, h.agent);
    expect(a).toMatchObject({ history_only: true, reason: 'state_version_changed', current: { state: 'shipped' } });
    expect(h.shop.calls.navigate).toEqual([orderUrl('ORD-1024')]);
    expect(await h.pipeline.resume(ORDER, { ...h.agent, token: 'tok_x' })).toMatchObject({ error: { code: 'TOKEN_INVALID' } });
  });
});

describe('MemoryResolver growth', () => {
  it('keeps one URL hint per URL and one snapshot per resource, however many actions ran', async () => {
    const { shop, memory } = await resolverWithOutcome();
    for (let i = 0; i < 3; i++) {
      shop.touch('ORD-1024');
      await memory.recordOutcome({ resource: ORDER, agent_id: 'agent:copilot', action_id: `act_${i}`, action: 'orders.view', outcome: 'confirmed', after: shop.observation('ORD-1024') });
    }
    const kinds = (await memory.store.recall(ORDER)).map((m) => m.record.kind);
    expect(kinds.filter((k) => k === 'resource_id')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'state_snapshot')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'audit_reference')).toHaveLength(4);
    expect((await memory.store.recall(ORDER, ['state_snapshot']))[0]!.record.state_version).toBe('fp-100014');
  });
});
