import { describe, expect, it, vi } from 'vitest';
import { PURGE_ALARM, RECHECK_ALARM, dueForRecheck, ensureAlarms, purge, recheckOpen } from '../../../src/background/pipeline-alarms.ts';
import { ORDER, approveNext, cancelRequest, harness } from '../pipeline/fakes.ts';

describe('pipeline alarms', () => {
  it('creates only the alarms that are missing (re-creating would reset their schedule)', async () => {
    const existing = new Set([PURGE_ALARM]);
    const alarms = { get: vi.fn(async (name: string) => (existing.has(name) ? { name } : undefined)), create: vi.fn(async () => undefined) };
    await ensureAlarms(alarms as never);
    expect(alarms.create).toHaveBeenCalledTimes(1);
    expect(alarms.create).toHaveBeenCalledWith(RECHECK_ALARM, { delayInMinutes: 1, periodInMinutes: 1 });
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
});
