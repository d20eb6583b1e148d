import { describe, expect, it, vi } from 'vitest';
import type { AuditKind } from '../../../src/protocol/audit.ts';
import { isErrorResult, type ActionResult } from '../../../src/protocol/results.ts';
import { ORDER, approveNext, cancelRequest, harness, restart, type Harness } from './fakes.ts';

const errorCode = (r: ActionResult) => (isErrorResult(r) ? r.error.code : undefined);

/** The audit log refuses every append of these kinds (a full disk, a lost key, a closed database). */
function failAppends(h: Harness, kinds: AuditKind[]) {
  const log = h.pipeline.deps.audit;
  const append = log.append.bind(log);
  return vi.spyOn(log, 'append').mockImplementation((input) => (kinds.includes(input.kind) ? Promise.reject(new Error('disk full')) : append(input)));
}

async function states(h: Harness, actionId: string) {
  return (await h.pipeline.deps.journal.history(actionId)).map((e) => e.state);
}

describe('no audit record, no dispatch', () => {
  it('the dispatch entry cannot be written: the executor is never called, AUDIT_UNAVAILABLE, and the key is free for a retry', async () => {
    const h = await harness();
    const failing = failAppends(h, ['dispatch']);
    const request = { action: 'orders.view', resource: ORDER, idempotency_key: 'view_audit' };
    const r = await h.pipeline.submit(request, h.agent);
    expect(r).toMatchObject({ error: { code: 'AUDIT_UNAVAILABLE', retryable: true } });
    expect(h.shop.calls.execute).toHaveLength(0);
    expect(await states(h, r.action_id!)).toEqual(['proposed', 'failed']);

    failing.mockRestore();
    const retried = await h.pipeline.submit(request, h.agent);
    expect(isErrorResult(retried)).toBe(false);
    expect(h.shop.calls.execute).toHaveLength(1);
    expect(await h.pipeline.deps.audit.verify()).toMatchObject({ ok: true });
  });

  it('an approved action whose dispatch cannot be recorded is not dispatched either', async () => {
    const h = await harness();
    failAppends(h, ['dispatch']);
    const pending = h.pipeline.submit(cancelRequest(), h.agent);
    await approveNext(h);
    const r = await pending;
    expect(errorCode(r)).toBe('AUDIT_UNAVAILABLE');
    expect(h.shop.calls.execute).toHaveLength(0);
    expect(h.shop.orders.get('ORD-1024')!.state).toBe('awaiting_payment');
    expect(await states(h, r.action_id!)).toEqual(['proposed', 'awaiting_approval', 'approved', 'failed']);
  });

  it('an earlier step of the same action that was not written stops the dispatch too', async () => {
    const h = await harness();
    failAppends(h, ['proposal']);
    const r = await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'view_gap' }, h.agent);
    expect(errorCode(r)).toBe('AUDIT_UNAVAILABLE');
    expect(h.shop.calls.execute).toHaveLength(0);
  });

  it('after a restart that finds the newest entries removed, the break is on record before the next action', async () => {
    const h = await harness();
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v1' }, h.agent);
    const before = await h.pipeline.deps.audit.entries();
    await h.db.delete('audit', before.at(-1)!.seq);
    await h.db.delete('audit', before.at(-2)!.seq);
    const next = await restart(h);
    const r = await next.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v2' }, next.agent);
    expect(isErrorResult(r)).toBe(false);
    const after = await next.pipeline.deps.audit.entries();
    expect(after[before.length - 2]).toMatchObject({ kind: 'recovery', outcome: 'audit_chain_broken', details: { problem: 'truncated', seq: before.length - 2 } });
    expect(await next.pipeline.deps.audit.verify()).toMatchObject({ ok: false, problem: 'truncated', seq: before.length - 2 });
  });
});
