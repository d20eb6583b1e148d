import { describe, expect, it } from 'vitest';
import { isErrorResult, type ActionResult } from '../../../src/protocol/results.ts';
import { ORDER, ORIGIN, approve, cancelRequest, exactReceipt, harness, type Harness } from './fakes.ts';

/**
 * The token is checked at intake and again right before the executor is called, on every path:
 * a token revoked (or expired) while the state is read, the receipt checked or the person decides
 * never dispatches anything. The fake shop's observe hook is where "meanwhile" happens.
 */

const view = (key: string) => ({ action: 'orders.view', resource: ORDER, idempotency_key: key });

/** Revokes the harness token during the next observation (after intake has accepted it). */
function revokeWhileObserving(h: Harness): void {
  h.shop.beforeObserve = async () => {
    h.shop.beforeObserve = undefined;
    await h.pipeline.deps.tokens.revoke(h.token.token_id);
  };
}

/** What a user checks: nothing reached the shop, the journal ended `failed`, the audit says why, no dispatch entry. */
async function expectRefusedBeforeDispatch(h: Harness, r: ActionResult, key: string): Promise<void> {
  expect(r).toMatchObject({ error: { code: 'TOKEN_INVALID', details: { checked: 'before_dispatch' } } });
  expect(h.shop.calls.execute).toHaveLength(0);
  expect(h.shop.orders.get('ORD-1024')!.state).toBe('awaiting_payment');
  const history = (await h.pipeline.deps.journal.history(r.action_id!)).map((e) => e.state);
  expect(history.at(-1)).toBe('failed');
  expect(history).not.toContain('dispatched');
  const entries = (await h.pipeline.deps.audit.entries()).filter((e) => e.idempotency_key === key);
  expect(entries.map((e) => e.kind)).not.toContain('dispatch');
  expect(entries.at(-1)).toMatchObject({ kind: 'failure', outcome: 'refused', error_code: 'TOKEN_INVALID', token_id: h.token.token_id });
  expect(await h.pipeline.deps.audit.verify()).toMatchObject({ ok: true });
}

/** The key was released (nothing ran): the same request with a valid token runs under the same key. */
async function expectKeyReleased(h: Harness, request: Record<string, unknown>): Promise<void> {
  const fresh = await h.pipeline.deps.tokens.mint({ agent_id: 'agent:copilot', scope: ['orders:*'], resource_scope: 'order:*', origins: [ORIGIN], ttl_ms: 60 * 60_000 });
  const retry = await h.pipeline.submit(request, { ...h.agent, token: fresh.secret });
  expect(isErrorResult(retry)).toBe(false);
}

describe('token re-checked right before dispatch', () => {
  it('allow path: revoked while the state is read → TOKEN_INVALID, the executor is never called, the key is free', async () => {
    const h = await harness();
    revokeWhileObserving(h);
    const request = view('recheck-allow');
    const r = await h.pipeline.submit(request, h.agent);
    await expectRefusedBeforeDispatch(h, r, request.idempotency_key);
    await expectKeyReleased(h, request);
  });

  it('allow path: expired while the state is read → TOKEN_INVALID, the executor is never called', async () => {
    const h = await harness({ token: { ttl_ms: 60_000 } });
    h.shop.beforeObserve = () => {
      h.shop.beforeObserve = undefined;
      h.clock.advance(60_000);
    };
    const r = await h.pipeline.submit(view('recheck-expired'), h.agent);
    await expectRefusedBeforeDispatch(h, r, 'recheck-expired');
    expect(r).toMatchObject({ error: { message: expect.stringContaining('expired') } });
  });

  it('presented-receipt path: revoked after intake → TOKEN_INVALID, the executor is never called', async () => {
    const h = await harness();
    const req = cancelRequest();
    const receipt_id = await exactReceipt(h, req);
    revokeWhileObserving(h);
    const r = await h.pipeline.submit({ ...req, approval: { receipt_id } }, h.agent);
    await expectRefusedBeforeDispatch(h, r, req.idempotency_key);
    // A different request under the same key would conflict if the key had been kept.
    await expectKeyReleased(h, view(req.idempotency_key));
  });

  it('approved path: revoked while the approved action re-reads the state → TOKEN_INVALID, the executor is never called', async () => {
    const h = await harness();
    const req = cancelRequest();
    const pending = h.pipeline.submit(req, h.agent);
    const card = await h.panel.next();
    // Intake and the check at the start of the approved dispatch both pass; the revocation lands after them.
    revokeWhileObserving(h);
    await approve(h, card);
    const r = await pending;
    await expectRefusedBeforeDispatch(h, r, req.idempotency_key);
    expect((await h.pipeline.deps.journal.history(r.action_id!)).map((e) => e.state)).toEqual(['proposed', 'awaiting_approval', 'approved', 'failed']);
  });
});
