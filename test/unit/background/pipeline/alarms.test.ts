import { fakeBrowser } from '@webext-core/fake-browser';
import { describe, expect, it, vi } from 'vitest';
import { PURGE_ALARM, RECHECK_ALARM, dueForRecheck, ensureAlarms, purge, recheckOpen } from '../../../../src/background/pipeline/alarms.ts';
import { ORDER, ORIGIN, approveNext, cancelRequest, harness, orderUrl } from '../../pipeline/fakes.ts';

describe('pipeline alarms', () => {
  it('creates only the alarms that are missing (re-creating would reset their schedule)', async () => {
    await fakeBrowser.alarms.create(PURGE_ALARM, { when: 1_000, periodInMinutes: 60 });
    const create = vi.spyOn(fakeBrowser.alarms, 'create');
    await ensureAlarms();
    expect(create).toHaveBeenCalledTimes(1);
    expect(create).toHaveBeenCalledWith(RECHECK_ALARM, { delayInMinutes: 1, periodInMinutes: 1 });
    create.mockRestore();
    expect(await fakeBrowser.alarms.get(PURGE_ALARM)).toMatchObject({ scheduledTime: 1_000, periodInMinutes: 60 });
    expect(await fakeBrowser.alarms.get(RECHECK_ALARM)).toMatchObject({ periodInMinutes: 1 });
  });

  it('on a fresh start: purge hourly and recheck every minute, both first due a minute from now', async () => {
    const before = Date.now();
    await ensureAlarms();
    const alarms = await fakeBrowser.alarms.getAll();
    expect(alarms.map((a) => [a.name, a.periodInMinutes])).toEqual([
      [PURGE_ALARM, 60],
      [RECHECK_ALARM, 1],
    ]);
    for (const a of alarms) expect(a.scheduledTime).toBeGreaterThanOrEqual(before + 60_000);
    await ensureAlarms();
    expect(await fakeBrowser.alarms.getAll()).toEqual(alarms);
  });

  it('rechecks often at first, then backs off, and stops after a day', () => {
    const min = 60_000;
    expect([0, 1, 9].map((m) => dueForRecheck(m * min + 5))).toEqual([true, true, true]);
    expect([10, 15, 20, 59].map((m) => dueForRecheck(m * min))).toEqual([true, false, true, false]);
    expect([60, 61, 120, 23 * 60].map((m) => dueForRecheck(m * min))).toEqual([true, false, true, true]);
    expect(dueForRecheck(25 * 60 * min)).toBe(false);
    expect(dueForRecheck(-1)).toBe(false);
  });

  it('purges expired tokens and expires cards whose time is up', async () => {
    const h = await harness();
    const { token: short } = await h.pipeline.deps.tokens.mint({ agent_id: 'agent:copilot', scope: ['orders:*'], resource_scope: '*', origins: ['http://localhost:4100'], ttl_ms: 1000 });
    void h.pipeline.submit(cancelRequest(), { ...h.agent, wait_for_approval: false });
    await h.panel.next();
    h.clock.advance(h.pipeline.deps.approvals.settings.request_ttl_ms + 1);
    const r = await purge(h.pipeline);
    expect(r).toMatchObject({ tokens: 1, approvals_pending: 0 });
    expect(await h.pipeline.deps.tokens.get(short.token_id)).toBeUndefined();
    expect(h.panel.settledLog.map(([, s]) => s)).toContain('expired');
  });

  it('rechecks only actions left pending_confirmation or unknown, by re-reading (never re-executing)', async () => {
    const h = await harness();
    // An action whose executor could not tell whether it happened: unknown.
    h.shop.executorOutcome = () => ({ outcome: 'failed', message: 'lost', side_effect_possible: true });
    const pending = h.pipeline.submit(cancelRequest(), h.agent);
    await approveNext(h);
    const r = await pending;
    expect(r).toMatchObject({ execution: { status: 'unknown' } });
    expect(await recheckOpen(h.pipeline, h.clock.t)).toEqual([r.action_id]);
    expect(h.shop.calls.execute).toHaveLength(1);
    // A confirmed action is left alone.
    h.shop.executorOutcome = undefined;
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'view_ok' }, h.agent);
    expect(await recheckOpen(h.pipeline, h.clock.t)).toEqual([r.action_id]);
  });

  it('leaves a WebMCP form waiting for the person alone unless the agent said what would confirm it', async () => {
    const h = await harness();
    h.shop.executorOutcome = (call) => (call.via === 'webmcp' ? { outcome: 'accepted' } : undefined);
    h.shop.tools = [{ name: 'request_callback', description: 'x', kind: 'declarative', autosubmit: false, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }];
    const accepted = await h.pipeline.submit({ action: 'request_callback', resource: ORDER, idempotency_key: 'cb1' }, h.agent);
    expect(accepted).toMatchObject({ execution: { status: 'accepted' } });
    h.shop.touch('ORD-1024');
    expect(await recheckOpen(h.pipeline, h.clock.t)).toEqual([]);
    expect((await h.pipeline.deps.journal.action(accepted.action_id!))?.state).toBe('pending_confirmation');

    const expected = await h.pipeline.submit({ action: 'request_callback', resource: ORDER, idempotency_key: 'cb2' }, { ...h.agent, expect: { state: 'awaiting_payment' } });
    expect(await recheckOpen(h.pipeline, h.clock.t)).toEqual([expected.action_id]);
  });

  it('never navigates the person’s tab to recheck: it reads the tab only where it already shows the resource', async () => {
    const h = await harness();
    h.shop.executorOutcome = () => ({ outcome: 'failed', message: 'lost', side_effect_possible: true });
    const pending = h.pipeline.submit(cancelRequest(), { ...h.agent, expect: { state: 'cancelled' } });
    await approveNext(h);
    const r = await pending;
    expect(r).toMatchObject({ execution: { status: 'unknown' } });
    // The effect lands later, and meanwhile the person uses that tab for something else.
    h.shop.executorOutcome = undefined;
    h.shop.orders.get('ORD-1024')!.state = 'cancelled';
    h.shop.orders.get('ORD-1024')!.version++;
    h.shop.tabUrl = `${ORIGIN}/account`;
    h.shop.routes = [{ kind: 'adapter', url: orderUrl('ORD-1024') }];
    await h.pipeline.deps.memory.recordOutcome({ resource: ORDER, agent_id: h.agent.agent_id, action_id: r.action_id!, action: 'orders.cancel', outcome: 'unknown', after: h.shop.observation('ORD-1024') });
    const navigatedBefore = h.shop.calls.navigate.length;
    expect(await recheckOpen(h.pipeline, h.clock.t)).toEqual([r.action_id]);
    expect(h.shop.calls.navigate).toHaveLength(navigatedBefore);
    expect(h.shop.tabUrl).toBe(`${ORIGIN}/account`);
    expect((await h.pipeline.deps.journal.action(r.action_id!))?.state).toBe('unknown');
    // Once the tab shows the order again (the person went back to it), the recheck confirms it.
    h.shop.tabUrl = orderUrl('ORD-1024');
    await recheckOpen(h.pipeline, h.clock.t);
    expect((await h.pipeline.deps.journal.action(r.action_id!))?.state).toBe('confirmed');
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('stops rechecking once the agent’s token is revoked or expired: nothing is read for it', async () => {
    const h = await harness();
    h.shop.executorOutcome = () => ({ outcome: 'failed', message: 'lost', side_effect_possible: true });
    const pending = h.pipeline.submit(cancelRequest(), { ...h.agent, expect: { state: 'cancelled' } });
    await approveNext(h);
    const r = await pending;
    await h.pipeline.deps.tokens.revoke(h.token.token_id);
    h.shop.orders.get('ORD-1024')!.state = 'cancelled';
    h.shop.orders.get('ORD-1024')!.version++;
    const observedBefore = h.shop.calls.observe;
    await recheckOpen(h.pipeline, h.clock.t);
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
    await recheckOpen(h2.pipeline, h2.clock.t);
    expect(h2.shop.calls.observe).toBe(observed2);
    expect((await h2.pipeline.deps.journal.action(r2.action_id!))?.state).toBe('unknown');
  });
});
