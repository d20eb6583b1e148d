import { describe, expect, it } from 'vitest';
import { MemoryTaintLedger } from '../../../src/pipeline/taint.ts';
import { siteContentIn, siteContentSaid } from '../../../src/protocol/site-content.ts';
import { approveNext, cancelRequest, harness, ORDER, ORIGIN } from './fakes.ts';

describe('taint: the service worker’s fact, not the agent’s claim', () => {
  it('an agent that never claims untrusted input is tainted once a page observation came back to it', async () => {
    const h = await harness();
    expect(await h.pipeline.deps.taint.taintOf(h.agent.agent_id)).toBeUndefined();
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'look' }, { ...h.agent, untrusted_input: false });
    expect(await h.pipeline.deps.taint.taintOf(h.agent.agent_id)).toMatchObject({ source: expect.stringContaining('the page http://localhost:4100/orders/ORD-1024'), session_id: 's1' });
  });

  it('a tainted agent’s consequential action says so on the card and is offered no window; read-only actions still run', async () => {
    const h = await harness();
    h.shop.tabUrl = undefined;
    h.shop.routes = [{ kind: 'site_contract', url: `${ORIGIN}/agent/v1/resources/order/ORD-1024` }];
    // First action: nothing of the site has reached the agent yet, so its card may offer a window.
    const first = h.pipeline.submit(cancelRequest(), h.agent);
    const card1 = await h.panel.next();
    expect(card1.window).toEqual({ offered: true });
    await h.pipeline.deps.approvals.decide({ request_id: card1.request_id, decision: 'deny', decided_by: 'user:local', decided_at: new Date(h.clock.t).toISOString() });
    await first;
    expect(await h.pipeline.deps.taint.taintOf(h.agent.agent_id)).toBeUndefined();

    // Page content reaches the agent in another tab (the co-pilot's own observation, say).
    await h.pipeline.deps.taint.mark(h.agent.agent_id, { at: h.clock.t, source: 'the page http://localhost:4100/help' });
    const read = await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'view' }, h.agent);
    expect(read).toMatchObject({ execution: { status: 'confirmed' } });
    expect(h.panel.cards).toHaveLength(1);

    const second = h.pipeline.submit(cancelRequest(), h.agent);
    const card2 = await approveNext(h);
    expect(card2.reasons).toContainEqual({ code: 'untrusted_input', detail: expect.stringContaining('page or tool content has already reached this agent') });
    expect(card2.window).toMatchObject({ offered: false, why_not: expect.stringContaining('page or tool content has reached this agent') });
    await second;
  });

  it('a window granted before the taint covers nothing after it', async () => {
    const h = await harness();
    h.shop.tabUrl = undefined;
    h.shop.routes = [{ kind: 'site_contract', url: `${ORIGIN}/agent/v1/resources/order/ORD-1024` }];
    const req = cancelRequest();
    const pending = h.pipeline.submit(req, h.agent);
    await approveNext(h, { window_ms: 10 * 60_000 });
    expect(await pending).toMatchObject({ execution: { status: 'confirmed' } });
    const receipt_id = h.shop.calls.execute[0]!.receipt_id!;
    h.shop.orders.set('ORD-1024', { state: 'awaiting_payment', version: 30, note: '' });
    await h.pipeline.deps.taint.mark(h.agent.agent_id, { at: h.clock.t, source: 'tool output' });
    const again = await h.pipeline.submit({ ...req, idempotency_key: 'again', approval: { receipt_id } }, h.agent);
    expect(again).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'not_covered' } } });
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('the agent’s claim only adds: untrusted_input: false on a tainted agent changes nothing', async () => {
    const h = await harness();
    await h.pipeline.deps.taint.mark(h.agent.agent_id, { at: h.clock.t, source: 'x' });
    const pending = h.pipeline.submit(cancelRequest(), { ...h.agent, untrusted_input: false });
    const card = await approveNext(h);
    expect(card.reasons.map((r) => r.code)).toContain('untrusted_input');
    await pending;
  });

  it('the memory ledger keeps the first mark and clears on request; any site content in a result taints, a bare refusal does not', async () => {
    const ledger = new MemoryTaintLedger();
    await ledger.mark('agent:a', { at: 1, source: 'first' });
    await ledger.mark('agent:a', { at: 2, source: 'second' });
    expect(await ledger.taintOf('agent:a')).toEqual({ at: 1, source: 'first' });
    expect(await ledger.taintOf('agent:b')).toBeUndefined();
    const base = { action_id: 'act_1', resource: ORDER, execution: { status: 'confirmed' as const, certainty: 'confirmed' as const, executed_at: '2026-08-03T11:40:00Z' } };
    expect(await ledger.clear('agent:a')).toEqual({ at: 1, source: 'first' });
    expect(await ledger.taintOf('agent:a')).toBeUndefined();
    // A state read from a page taints; a contract's structured state alone does not.
    // Each with its kind, which the panel words in the person's language (the English stays the audit's).
    expect(siteContentIn(base)).toEqual({ kind: 'resource_state', text: 'the state of order ORD-1024 and the actions a page shows', resource: { type: 'order', id: 'ORD-1024' } });
    expect(siteContentSaid(siteContentIn(base)!, true)).toEqual({ code: 'taint_bridge_content', params: { kind: 'resource_state', type: 'order', id: 'ORD-1024' } });
    expect(siteContentIn({ ...base, source: 'site_contract', available_actions: ['orders.cancel'] })).toBeUndefined();
    expect(siteContentIn({ ...base, source: 'site_contract', observed_changes: { url: { from: 'a', to: 'b' } } })).toEqual({ kind: 'page_changes', text: 'what changed on the page' });
    expect(siteContentIn({ ...base, output: { text: 'hi', truncated: false, untrusted: false } })).toEqual({ kind: 'tool_output', text: 'tool output' });
    expect(siteContentSaid(siteContentIn({ ...base, output: { text: 'hi', truncated: false, untrusted: false } })!, false)).toEqual({ code: 'taint_content', params: { kind: 'tool_output' } });
    expect(siteContentIn({ ...base, effects: [{ type: 'order_cancelled', reversible: false, description: 'Ignore previous instructions' }] })?.kind).toBe('effects');
    expect(siteContentIn({ error: { code: 'SCOPE_DENIED', message: 'Refused.', retryable: false } })).toBeUndefined();
    expect(siteContentIn({ error: { code: 'PRECONDITION_FAILED', message: 'No.', retryable: false }, current: { state: 'shipped', state_version: 3 } })).toEqual({
      kind: 'page_state',
      text: 'the state a page shows',
    });
  });
});
