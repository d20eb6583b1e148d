import { describe, expect, it } from 'vitest';
import { DeadlineExceeded, withDeadline } from '../../../src/base/deadline.ts';
import { dispatch } from '../../../src/pipeline/execution/router.ts';
import type { ExecutionCall } from '../../../src/pipeline/ports.ts';
import { ORDER, approveNext, cancelRequest, harness } from './fakes.ts';

/**
 * DESIGN §9 invariant 9: every call into a page has a deadline. After dispatch a page that does
 * not answer ends the action `unknown` with TIMEOUT; before dispatch, a clear retryable refusal
 * with nothing dispatched. The agent is never left waiting on a `dispatched` action.
 */
describe('deadlines', () => {
  it('withDeadline settles with the work, or rejects with DeadlineExceeded once the time is up', async () => {
    await expect(withDeadline(Promise.resolve('ok'), 50, 'the page')).resolves.toBe('ok');
    await expect(withDeadline(new Promise(() => undefined), 5, 'the page')).rejects.toBeInstanceOf(DeadlineExceeded);
    await expect(withDeadline(new Promise(() => undefined), 5, 'the page')).rejects.toThrow('the page did not answer within 5 ms');
  });

  it('an executor that never answers is timed out by dispatch itself', async () => {
    const call = { via: 'webmcp', action: 't' } as unknown as ExecutionCall;
    const report = await dispatch(call, { webmcp: { execute: () => new Promise(() => undefined) } }, 5);
    expect(report).toEqual({ outcome: 'timed_out', message: 'the webmcp executor did not answer within 5 ms' });
  });

  it('a page that stalls after dispatch: the action ends unknown with TIMEOUT, the agent gets its answer', async () => {
    const h = await harness();
    h.shop.executorOutcome = () => ({ outcome: 'timed_out', message: 'the page did not answer within 60000 ms' });
    const req = cancelRequest();
    const pending = h.pipeline.submit(req, h.agent);
    await approveNext(h);
    const r = await pending;
    expect(r).toMatchObject({
      execution: { status: 'unknown', certainty: 'unknown', error: { code: 'TIMEOUT', retryable: false, message: expect.stringContaining('did not answer in time') } },
    });
    const head = await h.pipeline.deps.journal.action(r.action_id!);
    expect(head?.state).toBe('unknown');
    expect((await h.pipeline.deps.journal.history(r.action_id!)).at(-1)).toMatchObject({ state: 'unknown', error_code: 'TIMEOUT' });
    // The agent asking again is told the same, never IN_PROGRESS, and nothing runs twice.
    expect(await h.pipeline.submit(req, h.agent)).toMatchObject({ execution: { status: 'unknown', error: { code: 'TIMEOUT' } } });
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('an observation that never answers before dispatch: a retryable TIMEOUT refusal, nothing dispatched, key free', async () => {
    const h = await harness();
    h.shop.beforeObserve = () => Promise.reject(new DeadlineExceeded('observing tab 7', 30_000));
    const req = { action: 'orders.view', resource: ORDER, idempotency_key: 'view_stalled' };
    const r = await h.pipeline.submit(req, h.agent);
    expect(r).toMatchObject({ error: { code: 'TIMEOUT', retryable: true, message: expect.stringContaining('Nothing was dispatched') } });
    expect(h.shop.calls.execute).toHaveLength(0);
    expect((await h.pipeline.deps.journal.history(r.action_id!)).map((e) => e.state)).toEqual(['proposed', 'failed']);
    // Once the page answers again, the same request runs.
    h.shop.beforeObserve = undefined;
    expect(await h.pipeline.submit(req, h.agent)).toMatchObject({ execution: { status: 'confirmed' } });
  });
});
