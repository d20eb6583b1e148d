import { describe, expect, it } from 'vitest';
import { dueRechecks } from '../../../src/pipeline/recheck.ts';
import { ORDER, ORIGIN, approveNext, cancelRequest, harness, orderUrl } from './fakes.ts';

/** An approved cancel whose executor could not tell whether it happened: left unknown, open for rechecks. */
async function unknownCancel() {
  const h = await harness();
  h.shop.executorOutcome = () => ({ outcome: 'failed', message: 'lost', side_effect_possible: true });
  const pending = h.pipeline.submit(cancelRequest(), { ...h.agent, expect: { state: 'cancelled' } });
  await approveNext(h);
  return { h, r: await pending };
}

describe('rechecking open actions (the recheck alarm)', () => {
  it('rechecks often at first, then backs off, and stops after a day', async () => {
    const { h, r } = await unknownCancel();
    const stored = (await h.pipeline.deps.journal.action(r.action_id!))!;
    expect(stored.state).toBe('unknown');
    /** Whether the unknown action, `ageMs` after its last change, is due for a recheck. */
    const dueForRecheck = (ageMs: number) => dueRechecks([stored], stored.updated_at + ageMs).length === 1;
    const min = 60_000;
    expect([0, 1, 9].map((m) => dueForRecheck(m * min + 5))).toEqual([true, true, true]);
    expect([10, 15, 20, 59].map((m) => dueForRecheck(m * min))).toEqual([true, false, true, false]);
    expect([60, 61, 120, 23 * 60].map((m) => dueForRecheck(m * min))).toEqual([true, false, true, true]);
    expect(dueForRecheck(25 * 60 * min)).toBe(false);
    expect(dueForRecheck(-1)).toBe(false);
  });

  it('rechecks only actions left pending_confirmation or unknown, by re-reading (never re-executing)', async () => {
    const h = await harness();
    // An action whose executor could not tell whether it happened: unknown.
    h.shop.executorOutcome = () => ({ outcome: 'failed', message: 'lost', side_effect_possible: true });
    const pending = h.pipeline.submit(cancelRequest(), h.agent);
    await approveNext(h);
    const r = await pending;
    expect(r).toMatchObject({ execution: { status: 'unknown' } });
    expect(await h.pipeline.recheckOpen(h.clock.t)).toEqual([r.action_id]);
    expect(h.shop.calls.execute).toHaveLength(1);
    // A confirmed action is left alone.
    h.shop.executorOutcome = undefined;
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'view_ok' }, h.agent);
    expect(await h.pipeline.recheckOpen(h.clock.t)).toEqual([r.action_id]);
  });

  it('leaves a WebMCP form waiting for the person alone unless the agent said what would confirm it', async () => {
    const h = await harness();
    h.shop.executorOutcome = (call) => (call.via === 'webmcp' ? { outcome: 'accepted' } : undefined);
    h.shop.tools = [{ name: 'request_callback', description: 'x', kind: 'declarative', autosubmit: false, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }];
    const accepted = await h.pipeline.submit({ action: 'request_callback', resource: ORDER, idempotency_key: 'cb1' }, h.agent);
    expect(accepted).toMatchObject({ execution: { status: 'accepted' } });
    h.shop.touch('ORD-1024');
    expect(await h.pipeline.recheckOpen(h.clock.t)).toEqual([]);
    expect((await h.pipeline.deps.journal.action(accepted.action_id!))?.state).toBe('pending_confirmation');

    const expected = await h.pipeline.submit({ action: 'request_callback', resource: ORDER, idempotency_key: 'cb2' }, { ...h.agent, expect: { state: 'awaiting_payment' } });
    expect(await h.pipeline.recheckOpen(h.clock.t)).toEqual([expected.action_id]);
  });

  it('never navigates the person’s tab to recheck: it reads the tab only where it already shows the resource', async () => {
    const { h, r } = await unknownCancel();
    expect(r).toMatchObject({ execution: { status: 'unknown' } });
    // The effect lands later, and meanwhile the person uses that tab for something else.
    h.shop.executorOutcome = undefined;
    h.shop.orders.get('ORD-1024')!.state = 'cancelled';
    h.shop.orders.get('ORD-1024')!.version++;
    h.shop.tabUrl = `${ORIGIN}/account`;
    h.shop.routes = [{ kind: 'adapter', url: orderUrl('ORD-1024') }];
    await h.pipeline.deps.memory.recordOutcome({
      resource: ORDER,
      agent_id: h.agent.agent_id,
      action_id: r.action_id!,
      action: 'orders.cancel',
      outcome: 'unknown',
      after: h.shop.observation('ORD-1024'),
    });
    const navigatedBefore = h.shop.calls.navigate.length;
    expect(await h.pipeline.recheckOpen(h.clock.t)).toEqual([r.action_id]);
    expect(h.shop.calls.navigate).toHaveLength(navigatedBefore);
    expect(h.shop.tabUrl).toBe(`${ORIGIN}/account`);
    expect((await h.pipeline.deps.journal.action(r.action_id!))?.state).toBe('unknown');
    // Once the tab shows the order again (the person went back to it), the recheck confirms it.
    h.shop.tabUrl = orderUrl('ORD-1024');
    await h.pipeline.recheckOpen(h.clock.t);
    expect((await h.pipeline.deps.journal.action(r.action_id!))?.state).toBe('confirmed');
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('stops rechecking once the agent’s token is revoked or expired: nothing is read for it', async () => {
    const { h, r } = await unknownCancel();
    await h.pipeline.deps.tokens.revoke(h.token.token_id);
    h.shop.orders.get('ORD-1024')!.state = 'cancelled';
    h.shop.orders.get('ORD-1024')!.version++;
    const observedBefore = h.shop.calls.observe;
    await h.pipeline.recheckOpen(h.clock.t);
    expect(h.shop.calls.observe).toBe(observedBefore);
    expect((await h.pipeline.deps.journal.action(r.action_id!))?.state).toBe('unknown');
    expect((await h.pipeline.status(r.action_id!))?.state).toBe('unknown');

    // An expired token, likewise.
    const h2 = await harness({ token: { ttl_ms: 60_000 } });
    h2.shop.executorOutcome = () => ({ outcome: 'failed', message: 'lost', side_effect_possible: true });
    const p2 = h2.pipeline.submit(cancelRequest(), { ...h2.agent, expect: { state: 'cancelled' } });
    await approveNext(h2);
    const r2 = await p2;
    h2.clock.advance(2 * 60_000);
    const observed2 = h2.shop.calls.observe;
    await h2.pipeline.recheckOpen(h2.clock.t);
    expect(h2.shop.calls.observe).toBe(observed2);
    expect((await h2.pipeline.deps.journal.action(r2.action_id!))?.state).toBe('unknown');
  });
});
