import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../../src/protocol/webmcp.ts';
import { isErrorResult } from '../../../src/protocol/results.ts';
import { isConfirmedDone } from '../protocol/helpers.ts';
import { FakeShop, ORDER, ORIGIN, approveNext, cancelRequest, harness } from './fakes.ts';

const book: ToolDescriptor = {
  name: 'book_appointment',
  description: 'Book a slot',
  inputSchema: { type: 'object', properties: { date: { type: 'string' } }, required: ['date'], additionalProperties: false },
  annotations: { consequentialHint: true },
  kind: 'imperative',
};

describe('Pipeline on each path', () => {
  it('contract: state from the contract endpoint, confirmed by the site', async () => {
    const shop = new FakeShop();
    shop.tabUrl = undefined;
    shop.routes = [{ kind: 'site_contract', url: `${ORIGIN}/agent/v1/resources/order/ORD-1024` }];
    const h = await harness({ shop });
    const pending = h.pipeline.submit(cancelRequest({ preconditions: { expected_state: 'awaiting_payment', state_version: 17 } }), h.agent);
    const card = await approveNext(h);
    expect(card.via).toBe('site_contract');
    const r = await pending;
    expect(r).toMatchObject({ execution: { status: 'confirmed', certainty: 'confirmed', verified_by: 'site_contract' }, resource: { state: 'cancelled', state_version: 18 }, source: 'site_contract' });
    expect(h.shop.calls.execute[0]).toMatchObject({ via: 'site_contract', location: { kind: 'contract' }, idempotency_key: card.idempotency_key });
  });

  it('WebMCP: invalid input is INVALID_INPUT before any card or execution', async () => {
    const shop = new FakeShop();
    shop.tools = [book];
    const h = await harness({ shop });
    const r = await h.pipeline.submit({ action: 'book_appointment', resource: ORDER, input: { day: 'monday' }, idempotency_key: 'b1' }, h.agent);
    expect(r).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    expect(h.panel.cards).toHaveLength(0);
    expect(h.shop.calls.execute).toHaveLength(0);
  });

  it('WebMCP: a consequential tool needs approval, then runs and is confirmed by its result', async () => {
    const shop = new FakeShop();
    shop.tools = [book];
    const h = await harness({ shop });
    const pending = h.pipeline.submit({ action: 'book_appointment', resource: ORDER, input: { date: '2026-09-01' }, idempotency_key: 'b2' }, h.agent);
    expect((await approveNext(h)).reasons.map((r) => r.code)).toEqual(['consequential', 'not_read_only']);
    expect(await pending).toMatchObject({ execution: { status: 'confirmed', verified_by: 'tool_result' }, output: { text: 'ran book_appointment' } });
  });

  it('WebMCP: a declarative form without toolautosubmit ends pending (waiting for the user), never done', async () => {
    const shop = new FakeShop();
    shop.tools = [{ ...book, kind: 'declarative', autosubmit: false }];
    const h = await harness({ shop });
    const pending = h.pipeline.submit({ action: 'book_appointment', resource: ORDER, input: { date: '2026-09-01' }, idempotency_key: 'b3' }, h.agent);
    await approveNext(h);
    const r = await pending;
    expect(r).toMatchObject({ execution: { status: 'accepted', certainty: 'pending_confirmation' } });
    expect(isConfirmedDone(r)).toBe(false);
    expect((await h.pipeline.status(r.action_id!))?.state).toBe('pending_confirmation');
  });

  it('legacy: typing into a plain field runs without approval and is confirmed by the new value', async () => {
    const shop = new FakeShop();
    shop.tabSource = 'legacy_inference';
    const h = await harness({ shop });
    const r = await h.pipeline.submit({ action: 'dom.type', resource: ORDER, input: { ref: 'e3', text: 'leave at door' }, idempotency_key: 't1' }, h.agent);
    expect(h.panel.cards).toHaveLength(0);
    expect(r).toMatchObject({ execution: { status: 'confirmed', certainty: 'confirmed', verified_by: 'postcondition' } });
  });

  it('legacy: clicking “Cancel order” needs approval; confirmed only because the expected state is observed', async () => {
    const shop = new FakeShop();
    shop.tabSource = 'legacy_inference';
    const h = await harness({ shop });
    const pending = h.pipeline.submit({ action: 'dom.click', resource: ORDER, input: { ref: 'e1' }, idempotency_key: 'c1' }, { ...h.agent, expect: { state: 'cancelled' } });
    expect((await approveNext(h)).reasons.map((r) => r.code)).toEqual(['risky_control', 'not_read_only']);
    expect(await pending).toMatchObject({ execution: { status: 'confirmed', certainty: 'confirmed' }, resource: { state: 'cancelled' } });
  });

  it('legacy: a click whose effect cannot be checked is not reported as done', async () => {
    const shop = new FakeShop();
    shop.tabSource = 'legacy_inference';
    const h = await harness({ shop });
    const pending = h.pipeline.submit({ action: 'dom.click', resource: ORDER, input: { ref: 'e6' }, idempotency_key: 'c2' }, h.agent);
    expect((await approveNext(h)).reasons.map((r) => r.code)).toContain('unknown_risk');
    const r = await pending;
    expect(r).toMatchObject({ execution: { status: 'unknown', certainty: 'unknown' } });
    expect(isConfirmedDone(r)).toBe(false);
  });

  it('legacy: hidden fields are never typed into', async () => {
    const shop = new FakeShop();
    shop.tabSource = 'legacy_inference';
    const h = await harness({ shop });
    const r = await h.pipeline.submit({ action: 'dom.type', resource: ORDER, input: { ref: 'e4', text: 'x' }, idempotency_key: 't2' }, h.agent);
    expect(r).toMatchObject({ error: { code: 'INVALID_INPUT', message: /hidden/ } });
    expect(h.shop.calls.execute).toHaveLength(0);
  });
});

describe('Pipeline audit trail', () => {
  it('records every step with agent, token, receipt, key, input hash, state versions and outcome; the chain verifies', async () => {
    const h = await harness();
    const pending = h.pipeline.submit(cancelRequest(), h.agent);
    const card = await approveNext(h);
    const r = await pending;
    if (isErrorResult(r)) throw new Error('failed');
    const entries = (await h.pipeline.deps.audit.entries()).filter((e) => e.idempotency_key === card.idempotency_key);
    expect(entries.map((e) => e.kind)).toEqual(['proposal', 'observation', 'approval_request', 'approval', 'dispatch', 'confirmation']);
    for (const e of entries) expect(e).toMatchObject({ agent_id: 'agent:copilot', token_id: h.token.token_id, input_hash: card.input_hash, action: 'orders.cancel', resource: ORDER });
    const final = entries.at(-1)!;
    expect(final).toMatchObject({
      audit_id: r.audit_receipt,
      receipt_id: expect.stringMatching(/^approval_/),
      state_version_before: 'fp-100011',
      state_version_after: 'fp-100012',
      outcome: 'confirmed_confirmed',
    });
    expect(entries.find((e) => e.kind === 'dispatch')?.receipt_id).toBe(final.receipt_id);
    const minted = (await h.pipeline.deps.audit.entries()).find((e) => e.kind === 'token');
    expect(minted).toMatchObject({ token_id: h.token.token_id, outcome: 'minted' });
    expect(await h.pipeline.deps.audit.verify()).toMatchObject({ ok: true });
    const jsonl = await h.pipeline.deps.audit.exportJsonl();
    // One line per entry, then the signed head.
    expect(jsonl.trimEnd().split('\n').length).toBe((await h.pipeline.deps.audit.entries()).length + 1);
    expect(await h.pipeline.deps.audit.verifyExport(jsonl)).toMatchObject({ ok: true });
  });

  it('refusals before journaling are audited too, without what the agent presented', async () => {
    const h = await harness();
    await h.pipeline.submit(cancelRequest(), { ...h.agent, token: 'tok_forged' });
    const last = (await h.pipeline.deps.audit.entries()).at(-1);
    expect(last).toMatchObject({ kind: 'denial', error_code: 'TOKEN_INVALID', action: 'orders.cancel' });
    expect(last?.token_id).toBeUndefined();
    expect(JSON.stringify(last)).not.toContain('tok_forged');
    // A revoked token's secret is refused too; the denial names the token by its public id only.
    await h.pipeline.deps.tokens.revoke(h.token.token_id);
    await h.pipeline.submit(cancelRequest(), h.agent);
    const revoked = (await h.pipeline.deps.audit.entries()).at(-1);
    expect(revoked).toMatchObject({ kind: 'denial', error_code: 'TOKEN_INVALID', token_id: h.token.token_id });
    expect(await h.pipeline.deps.audit.exportJsonl()).not.toContain(h.secret);
  });
});
