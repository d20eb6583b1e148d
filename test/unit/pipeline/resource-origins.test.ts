import { describe, expect, it } from 'vitest';
import { reachResource } from '../../../src/pipeline/navigator.ts';
import type { Location, PipelinePorts, Route } from '../../../src/pipeline/ports.ts';
import { ApprovalReceipt } from '../../../src/protocol/approval.ts';
import type { ObservedState } from '../../../src/protocol/observed-state.ts';
import { resourceKey, sameResource, type ResourceRef } from '../../../src/protocol/resource.ts';
import { requestHash } from '../../../src/base/hash.ts';
import { checkReceiptBinding, type ReceiptBinding } from '../../../src/storage/receipt-binding.ts';
import { MemoryResolver } from '../../../src/pipeline/memory-resolver.ts';
import { MemoryStore } from '../../../src/storage/memory-store.ts';
import { FakeClock, openDb } from '../storage/helpers.ts';
import { FakeShop, ORIGIN as SHOP, cancelRequest, harness } from './fakes.ts';

/**
 * A resource is (origin, type, id) (DESIGN §9, invariant 11): two shops that both have an order
 * ORD-1024 are two resources for the navigator, receipts, idempotency keys and memory.
 */

const A = 'http://localhost:4100';
const B = 'http://localhost:4200';
const LAB = 'http://localhost:4300';
const ORDER: ResourceRef = { type: 'order', id: 'ORD-1024' };
const endpoint = (origin: string) => `${origin}/agent/v1/resources/order/ORD-1024`;
const contractRoutes = (origins: string[]): Route[] => origins.map((o) => ({ kind: 'site_contract', url: endpoint(o) }));

/** Two contract sites with the same order ids, and a working tab on `tabUrl`. */
function twoSites(tabUrl: string | undefined) {
  const shop = new FakeShop();
  const read: string[] = [];
  const at = (url: string, source: 'site_contract' | 'adapter'): ObservedState => shop.observation('ORD-1024', source, url)!;
  const ports: Pick<PipelinePorts, 'observe' | 'navigate' | 'routes'> = {
    observe: async (where: Location) => {
      if (where.kind === 'contract') {
        read.push(where.url);
        return at(where.url, 'site_contract');
      }
      if (!tabUrl) return null;
      // An order page shows the order; any other page (the order list, the lab) is just a page.
      return tabUrl.endsWith('/orders/ORD-1024') ? at(tabUrl, 'adapter') : { ...at(tabUrl, 'adapter'), resource: { type: 'page', id: 'home' } };
    },
    navigate: async () => undefined,
    routes: async (r: ResourceRef) => contractRoutes([A, B].filter((o) => r.origin === undefined || o === r.origin)),
  };
  return { ports, read };
}

const opts = { allowed_origins: [A, B, LAB], hints: [], ctx: { agent_id: 'agent:mcp-test' } };

/**
 * Which of `routes` the navigator tries for `resource` from a tab on `tabOrigin` (a page that is
 * not the resource), in order, and which it leaves as another site's; or the candidates it
 * refuses to choose between. No site answers, so every route chosen is tried.
 */
async function routesFor(resource: ResourceRef, routes: Route[], tabOrigin: string | undefined) {
  const shop = new FakeShop();
  const read: Route[] = [];
  const ports: Pick<PipelinePorts, 'observe' | 'navigate' | 'routes'> = {
    observe: async (where: Location) => {
      if (where.kind === 'contract') {
        read.push({ kind: 'site_contract', url: where.url });
        return null;
      }
      return tabOrigin === undefined ? null : { ...shop.observation('ORD-1024', 'adapter', `${tabOrigin}/`)!, resource: { type: 'page', id: 'home' } };
    },
    navigate: async () => undefined,
    routes: async () => routes,
  };
  const r = await reachResource(ports, resource, opts);
  if (!r.ok && r.error.code === 'AMBIGUOUS_RESOURCE') return { ambiguous: (r.error.details as { candidates: unknown }).candidates };
  return { routes: read, other: r.attempts.filter((a) => a.outcome === 'other_origin').map((a) => ({ kind: a.route, url: a.url })) };
}

describe('routesFor (which site a request is for)', () => {
  const both = contractRoutes([A, B]);

  it('a request naming its site gets that site’s routes only', async () => {
    expect(await routesFor({ ...ORDER, origin: B }, both, A)).toEqual({ routes: contractRoutes([B]), other: contractRoutes([A]) });
  });

  it('a request naming none is for the site of its tab when that site has a route', async () => {
    expect(await routesFor(ORDER, both, A)).toEqual({ routes: contractRoutes([A]), other: contractRoutes([B]) });
    expect(await routesFor(ORDER, both, B)).toEqual({ routes: contractRoutes([B]), other: contractRoutes([A]) });
  });

  it('with its tab on neither site and routes on both, it is ambiguous: the candidates name origin, type and id', async () => {
    expect(await routesFor(ORDER, both, LAB)).toEqual({
      ambiguous: [
        { origin: A, ...ORDER },
        { origin: B, ...ORDER },
      ],
    });
    expect(await routesFor(ORDER, both, undefined)).toEqual({
      ambiguous: [
        { origin: A, ...ORDER },
        { origin: B, ...ORDER },
      ],
    });
  });

  it('one site with a route is unambiguous', async () => {
    expect(await routesFor(ORDER, contractRoutes([B]), LAB)).toEqual({ routes: contractRoutes([B]), other: [] });
  });
});

describe('reachResource across two sites with the same ids', () => {
  it('a tab on site A (the order list) reaches A’s order through A’s contract, never reading B', async () => {
    const { ports, read } = twoSites(`${A}/`);
    const r = await reachResource(ports, ORDER, opts);
    expect(r).toMatchObject({ ok: true, route: 'site_contract', resource: { origin: A, ...ORDER }, location: { kind: 'contract', url: endpoint(A) } });
    expect(read).toEqual([endpoint(A)]);
  });

  it('a tab on site B reaches B’s order', async () => {
    const { ports, read } = twoSites(`${B}/`);
    expect(await reachResource(ports, ORDER, opts)).toMatchObject({ ok: true, resource: { origin: B } });
    expect(read).toEqual([endpoint(B)]);
  });

  it('a tab showing the order on A is A’s order; a request naming B is not satisfied by it', async () => {
    const { ports, read } = twoSites(`${A}/orders/ORD-1024`);
    expect(await reachResource(ports, ORDER, opts)).toMatchObject({ ok: true, route: 'current_tab', resource: { origin: A } });
    expect(read).toEqual([]);
    const named = await reachResource(ports, { ...ORDER, origin: B }, opts);
    expect(named).toMatchObject({ ok: true, route: 'site_contract', resource: { origin: B } });
    expect(named.attempts[0]).toMatchObject({ route: 'current_tab', outcome: 'other_resource', found: { origin: A, ...ORDER } });
    expect(read).toEqual([endpoint(B)]);
  });

  it('naming no site from a tab on neither is refused with the candidates, before any site is read', async () => {
    const { ports, read } = twoSites(`${LAB}/`);
    const r = await reachResource(ports, ORDER, opts);
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'AMBIGUOUS_RESOURCE',
        retryable: false,
        details: {
          reason: 'ambiguous_resource',
          candidates: [
            { origin: A, ...ORDER },
            { origin: B, ...ORDER },
          ],
        },
      },
    });
    expect(read).toEqual([]);
  });

  it('a site the token does not cover is no candidate', async () => {
    const { ports, read } = twoSites(`${LAB}/`);
    expect(await reachResource(ports, ORDER, { ...opts, allowed_origins: [B, LAB] })).toMatchObject({ ok: true, resource: { origin: B } });
    expect(read).toEqual([endpoint(B)]);
  });
});

describe('receipts, idempotency keys and memory are per site', () => {
  const at = new FakeClock().t;
  const receipt = (resource: ResourceRef) =>
    ApprovalReceipt.parse({
      receipt_id: 'approval_1',
      action: 'orders.cancel',
      resource,
      input_hash: `sha256:${'1'.repeat(64)}`,
      state_version: 17,
      agent_id: 'agent:copilot',
      token_id: 'tok_1',
      approved_by: 'user:local',
      scope: 'order:ORD-1024',
      issued_at: new Date(at).toISOString(),
      expires_at: new Date(at + 60_000).toISOString(),
    });
  const binding = (resource: ResourceRef): ReceiptBinding => ({
    action_id: 'act_1',
    action: 'orders.cancel',
    resource,
    input_hash: `sha256:${'1'.repeat(64)}`,
    state_version: 17,
    agent_id: 'agent:copilot',
    token_id: 'tok_1',
    via: 'site_contract',
    reasons: ['consequential'],
  });
  const stored = (resource: ResourceRef) => ({ receipt: receipt(resource), mode: 'exact' as const, used_by: [] });

  it('a receipt for A’s order does not cover B’s; one stored without a site covers neither', () => {
    expect(checkReceiptBinding(stored({ ...ORDER, origin: A }), binding({ ...ORDER, origin: A }), at)).toEqual({ ok: true });
    expect(checkReceiptBinding(stored({ ...ORDER, origin: A }), binding({ ...ORDER, origin: B }), at)).toMatchObject({ ok: false, problem: 'resource_mismatch' });
    expect(checkReceiptBinding(stored(ORDER), binding({ ...ORDER, origin: A }), at)).toMatchObject({ ok: false, problem: 'resource_mismatch' });
  });

  it('a key reused for the same order on another site is a different request', async () => {
    const input = { reason: 'x' };
    const onA = await requestHash('orders.cancel', { ...ORDER, origin: A }, input);
    expect(await requestHash('orders.cancel', { ...ORDER, origin: B }, input)).not.toBe(onA);
    // A request naming no site hashes as before (stored keys keep replaying).
    expect(await requestHash('orders.cancel', ORDER, input)).toBe(await requestHash('orders.cancel', { type: 'order', id: 'ORD-1024' }, input));
  });

  it('sameResource and resourceKey tell the two orders apart; an old reference without a site matches neither', () => {
    expect(sameResource({ ...ORDER, origin: A }, { ...ORDER, origin: B })).toBe(false);
    expect(sameResource(ORDER, { ...ORDER, origin: A })).toBe(false);
    expect(resourceKey({ ...ORDER, origin: A })).not.toBe(resourceKey({ ...ORDER, origin: B }));
  });

  it('memory recalls a site’s own records only; records from before origins are left out', async () => {
    const shop = new FakeShop();
    const clock = new FakeClock();
    const memory = new MemoryResolver(new MemoryStore(await openDb(), clock.now));
    const write = (origin: string, action_id: string) =>
      memory.recordOutcome({
        resource: ORDER,
        agent_id: 'agent:copilot',
        action_id,
        action: 'orders.view',
        outcome: 'confirmed',
        after: shop.observation('ORD-1024', 'adapter', `${origin}/orders/ORD-1024`),
      });
    await write(A, 'act_a');
    await write(B, 'act_b');
    // A record from before resources had origins.
    await memory.store.remember({ layer: 'durable', kind: 'resource_id', agent_id: 'agent:copilot', resource: ORDER, payload: { url_hint: 'http://localhost:4999/orders/ORD-1024' } });
    expect(await memory.urlHints({ ...ORDER, origin: A })).toEqual([`${A}/orders/ORD-1024`]);
    expect(await memory.urlHints({ ...ORDER, origin: B })).toEqual([`${B}/orders/ORD-1024`]);
    const onA = await memory.store.recall({ ...ORDER, origin: A });
    expect(onA.every((m) => m.record.resource?.origin === A)).toBe(true);
    expect(onA.map((m) => m.record.kind).sort()).toEqual(['audit_reference', 'resource_id', 'state_snapshot']);
  });
});

describe('the pipeline binds an action to the site it reached', () => {
  it('a request naming no site is journaled, carded, audited and answered as the resource of the site it was found on', async () => {
    const h = await harness();
    const request = cancelRequest();
    const first = await h.pipeline.submit(request, { ...h.agent, wait_for_approval: false });
    expect(first).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
    const actionId = (first as { action_id: string }).action_id;
    expect((await h.pipeline.deps.journal.action(actionId))?.request.resource).toEqual({ origin: SHOP, type: 'order', id: 'ORD-1024' });
    expect(h.panel.cards[0]).toMatchObject({ origin: SHOP, resource: { origin: SHOP, id: 'ORD-1024' } });
    const trail = (await h.pipeline.deps.audit.entries()).filter((e) => e.idempotency_key === request.idempotency_key);
    expect(trail.map((e) => [e.kind, e.resource?.origin])).toEqual([
      ['proposal', undefined],
      ['observation', SHOP],
      ['approval_request', SHOP],
    ]);
  });

  it('a request naming a site the token does not cover is refused before anything is read', async () => {
    const h = await harness();
    const observed = h.shop.calls.observe;
    const r = await h.pipeline.submit(cancelRequest({ resource: { origin: B, type: 'order', id: 'ORD-1024' } }), h.agent);
    expect(r).toMatchObject({ error: { code: 'SCOPE_DENIED', details: { origin: B } } });
    expect(h.shop.calls.observe).toBe(observed);
    expect(h.shop.calls.execute).toHaveLength(0);
  });
});
