import { describe, expect, it, vi } from 'vitest';
import { PipelineService } from '../../../../src/background/pipeline/service.ts';
import { approvalOf, cancelRequest, freshFactory, harness, openDb } from './service-helpers.ts';

describe('PipelineService (the pipeline’s life in the service worker)', () => {
  it('recovers unfinished actions before anyone is served, once', async () => {
    const factory = freshFactory();
    const h = await harness({ factory });
    // The first life left an action waiting for its approval.
    const first = await h.pipeline.submit(cancelRequest(), { ...h.agent, wait_for_approval: false });
    expect(first).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });

    const onReady = vi.fn();
    const openDbSpy = vi.fn(() => openDb(factory));
    const service = new PipelineService({ openDb: openDbSpy, ports: h.shop.ports(), onReady, clock: h.clock.now });
    const [a, b] = await Promise.all([service.ready, service.ready]);
    expect(a).toBe(b);
    expect(openDbSpy).toHaveBeenCalledTimes(1);
    expect(onReady).toHaveBeenCalledWith(a);
    // The card left waiting is waited for again in the background, by the new life.
    await service.recovered;
    expect(service.recovery).toEqual([expect.objectContaining({ action_id: first.action_id, from: 'awaiting_approval', to: 'waiting' })]);
    const card = (await a.deps.approvals.pending())[0]!;
    await a.deps.approvals.decide(approvalOf(card, h.clock.t));
    await a.idle();
    expect((await a.deps.journal.action(first.action_id!))?.state).toBe('confirmed');
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('a page that takes long to read does not hold anyone up: the action it resolves is IN_PROGRESS meanwhile, and settled once read', async () => {
    const factory = freshFactory();
    const h = await harness({ factory });
    // The first life clicked cancel and died before hearing back (the journal says dispatched).
    h.shop.beforeEffect = () => new Promise<void>(() => undefined);
    const req = cancelRequest();
    void h.pipeline.submit(req, h.agent);
    const card = await h.panel.next();
    await h.pipeline.deps.approvals.decide(approvalOf(card, h.clock.t));
    for (let i = 0; i < 500 && (await h.pipeline.deps.journal.unfinished())[0]?.state !== 'dispatched'; i++) await new Promise((r) => setTimeout(r, 1));
    h.shop.beforeEffect = undefined;
    h.shop.orders.get('ORD-1024')!.state = 'cancelled';
    h.shop.touch('ORD-1024');

    // The new life's first page read hangs (a tab still loading).
    let release: (() => void) | undefined;
    h.shop.beforeObserve = () => {
      h.shop.beforeObserve = undefined;
      return new Promise<void>((resolve) => (release = resolve));
    };
    const service = new PipelineService({ openDb: () => openDb(factory), ports: h.shop.ports(), clock: h.clock.now });
    const pipeline = await service.ready;
    expect(await pipeline.submit(req, h.agent)).toMatchObject({ error: { code: 'IN_PROGRESS' } });
    let recovered = false;
    void service.recovered.then(() => (recovered = true));
    for (let i = 0; i < 500 && !release; i++) await new Promise((r) => setTimeout(r, 1));
    expect(recovered).toBe(false);

    release!();
    await service.recovered;
    expect(service.recovery).toEqual([expect.objectContaining({ from: 'dispatched', to: 'confirmed' })]);
    expect(await pipeline.submit(req, h.agent)).toMatchObject({ execution: { status: 'confirmed' }, resource: { state: 'cancelled' } });
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('a failed start is retried by the next caller instead of poisoning the worker', async () => {
    const h = await harness();
    let fail = true;
    const service = new PipelineService({ openDb: async () => (fail ? Promise.reject(new Error('quota')) : h.db), ports: h.shop.ports() });
    await expect(service.ready).rejects.toThrow('quota');
    fail = false;
    expect(await service.ready).toBeDefined();
  });
});
