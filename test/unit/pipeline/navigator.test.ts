import { describe, expect, it } from 'vitest';
import { reachResource } from '../../../src/pipeline/navigator.ts';
import { FakeShop, ORDER, ORIGIN, orderUrl } from './fakes.ts';

const opts = (hints: string[] = []) => ({ allowed_origins: [ORIGIN], hints, ctx: { agent_id: 'agent:copilot' } });

describe('reachResource', () => {
  it('uses the working tab when it already shows the resource (verified by observing it)', async () => {
    const shop = new FakeShop();
    const r = await reachResource(shop.ports(), ORDER, opts());
    expect(r).toMatchObject({ ok: true, route: 'current_tab', location: { kind: 'tab' } });
    expect(shop.calls.navigate).toEqual([]);
  });

  it('prefers the contract endpoint, then adapter URL templates, then remembered URLs', async () => {
    const shop = new FakeShop();
    shop.tabUrl = `${ORIGIN}/`;
    shop.routes = [
      { kind: 'site_contract', url: `${ORIGIN}/agent/v1/resources/order/ORD-1024` },
      { kind: 'adapter', url: orderUrl('ORD-1024') },
    ];
    const r = await reachResource(shop.ports(), ORDER, opts([orderUrl('ORD-1024')]));
    expect(r).toMatchObject({ ok: true, route: 'site_contract', location: { kind: 'contract' }, observed: { source: 'site_contract', state_version: 17 } });
    expect(shop.calls.navigate).toEqual([]);
  });

  it('never trusts a stale remembered URL: it is verified after navigation and skipped when it shows something else', async () => {
    const shop = new FakeShop();
    shop.tabUrl = `${ORIGIN}/`;
    const stale = orderUrl('ORD-2048'); // once showed ORD-1024, now another order
    const r = await reachResource(shop.ports(), ORDER, opts([stale, orderUrl('ORD-1024')]));
    expect(r).toMatchObject({ ok: true, route: 'remembered_url' });
    expect(shop.calls.navigate).toEqual([stale, orderUrl('ORD-1024')]);
    expect(r.attempts.map((a) => a.outcome)).toEqual(['not_observed', 'other_resource', 'reached']);
  });

  it('never leaves the token’s origins, and fails with a clear error when nothing leads there', async () => {
    const shop = new FakeShop();
    shop.tabUrl = undefined;
    shop.routes = [{ kind: 'adapter', url: 'http://evil.test/orders/ORD-1024' }];
    const r = await reachResource(shop.ports(), ORDER, opts([orderUrl('ORD-2048')]));
    expect(shop.calls.navigate).toEqual([orderUrl('ORD-2048')]);
    expect(r).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND', message: /could not reach order ORD-1024/, details: { reason: 'resource_not_reachable' } } });
    expect(r.attempts.map((a) => a.outcome)).toEqual(['not_observed', 'origin_not_allowed', 'other_resource']);
  });

  it('a navigation that throws is one failed route, not a crash', async () => {
    const shop = new FakeShop();
    shop.tabUrl = undefined;
    const ports = { ...shop.ports(), navigate: async () => Promise.reject(new Error('tab closed')) };
    const r = await reachResource(ports, ORDER, opts([orderUrl('ORD-1024')]));
    expect(r).toMatchObject({ ok: false, attempts: [{ outcome: 'not_observed' }, { outcome: 'navigation_failed' }] });
  });

  it('told it may not navigate (background work), it only observes: the tab as it is, a contract endpoint', async () => {
    const shop = new FakeShop();
    shop.tabUrl = `${ORIGIN}/account`; // the person moved on to another page in that tab
    shop.routes = [{ kind: 'adapter', url: orderUrl('ORD-1024') }];
    const r = await reachResource(shop.ports(), ORDER, { ...opts([orderUrl('ORD-1024')]), may_navigate: false });
    expect(shop.calls.navigate).toEqual([]);
    expect(shop.tabUrl).toBe(`${ORIGIN}/account`);
    expect(r).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
    expect(r.attempts.map((a) => a.outcome)).toEqual(['not_observed', 'navigation_not_allowed']);

    shop.routes = [{ kind: 'site_contract', url: `${ORIGIN}/agent/v1/resources/order/ORD-1024` }];
    expect(await reachResource(shop.ports(), ORDER, { ...opts(), may_navigate: false })).toMatchObject({ ok: true, route: 'site_contract' });
    shop.tabUrl = orderUrl('ORD-1024');
    expect(await reachResource(shop.ports(), ORDER, { ...opts(), may_navigate: false })).toMatchObject({ ok: true, route: 'current_tab' });
    expect(shop.calls.navigate).toEqual([]);
  });
});
