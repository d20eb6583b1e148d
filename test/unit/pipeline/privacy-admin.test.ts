import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/storage/memory-store.ts';
import { openDb } from '../storage/helpers.ts';
import { harness } from './fakes.ts';

const SHOP = 'https://shop.example';
const OTHER = 'https://other.example';

/** Three durable records: two about the shop (one by resource, one by a URL hint only), one about another site. */
async function remembered(h: Awaited<ReturnType<typeof harness>>) {
  const store = h.pipeline.deps.memory.store;
  const writes = await store.rememberAll([
    { layer: 'durable', kind: 'audit_reference', agent_id: 'agent:copilot', resource: { origin: SHOP, type: 'order', id: 'ORD-1' }, payload: { action: 'orders.cancel', outcome: 'confirmed' } },
    { layer: 'durable', kind: 'resource_id', agent_id: 'agent:copilot', resource: { type: 'order', id: 'ORD-2' }, payload: { url_hint: `${SHOP}/orders/ORD-2` } },
    { layer: 'durable', kind: 'audit_reference', agent_id: 'agent:copilot', resource: { origin: OTHER, type: 'order', id: 'ORD-1' }, payload: { action: 'orders.view', outcome: 'done' } },
  ]);
  expect(writes.every((w) => w.ok)).toBe(true);
  return writes.map((w) => (w.ok ? w.record.id : ''));
}

describe('what Steward remembers, under the person’s control', () => {
  it('a record is about a site by its resource or by a URL hint there', async () => {
    /** Whether forgetting `origin` deletes a stored record holding `raw` (the store reads what it finds unchecked). */
    const remembersSite = async (raw: object | undefined, origin: string) => {
      const db = await openDb();
      await db.put('memory', { id: 'mem_1', ...raw } as never);
      return (await new MemoryStore(db).forgetSite(origin)) === 1;
    };
    expect(await remembersSite({ resource: { origin: SHOP } }, SHOP)).toBe(true);
    expect(await remembersSite({ payload: { url_hint: `${SHOP}/x` } }, SHOP)).toBe(true);
    expect(await remembersSite({ payload: { url_hint: `${SHOP}.evil.example/x` } }, SHOP)).toBe(false);
    expect(await remembersSite({ payload: { url_hint: 'not a url' } }, SHOP)).toBe(false);
    // A record that says nothing of any site (nothing but its id).
    expect(await remembersSite(undefined, SHOP)).toBe(false);
  });

  it('lists every memory entry, and deletes one with an audit entry naming it (not its content)', async () => {
    const h = await harness();
    const ids = await remembered(h);
    const first = ids[0];
    const listed = await h.pipeline.admin.memoryEntries();
    expect(listed.map((e) => e.record.id).sort()).toEqual([...ids].sort());
    expect(await h.pipeline.admin.deleteMemory(first!)).toEqual({ deleted: true });
    expect((await h.pipeline.admin.memoryEntries()).map((e) => e.record.id)).not.toContain(first);
    expect(await h.pipeline.admin.deleteMemory(first!)).toEqual({ deleted: false });
    const audit = (await h.pipeline.admin.auditEntries()).filter((e) => e.kind === 'privacy');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ outcome: 'memory_deleted', resource: { origin: SHOP, id: 'ORD-1' }, details: { by: 'user:local', memory_id: first, memory_kind: 'audit_reference' } });
    expect(JSON.stringify(audit[0])).not.toContain('orders.cancel');
    expect(await h.pipeline.admin.verifyAudit()).toMatchObject({ ok: true });
  });

  it('forgetting a site deletes its memory (and only its), records it, and names agents its content tainted', async () => {
    const h = await harness();
    await remembered(h);
    await h.pipeline.deps.taint.mark('agent:copilot', { at: 1, source: `page state of ${SHOP}/orders/ORD-1` });
    const result = await h.pipeline.admin.forgetSite(SHOP, { site_removed: true, grant_removed: false });
    expect(result).toEqual({ memory_removed: 2, tainted_agents: ['agent:copilot'] });
    const left = await h.pipeline.admin.memoryEntries();
    expect(left.map((e) => e.record.resource?.origin)).toEqual([OTHER]);
    // The taint stays: that content is still in the agent's context.
    expect(await h.pipeline.deps.taint.taintOf('agent:copilot')).toBeDefined();
    const entry = (await h.pipeline.admin.auditEntries()).find((e) => e.outcome === 'site_forgotten');
    expect(entry).toMatchObject({ kind: 'privacy', details: { origin: SHOP, memory_removed: 2, site_removed: true, grant_removed: false, still_tainted: ['agent:copilot'] } });
  });
});
