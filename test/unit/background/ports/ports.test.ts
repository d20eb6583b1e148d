import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionTabs } from '../../../../src/background/core/sessions.ts';
import { createChromePorts } from '../../../../src/background/ports/index.ts';
import { fencedExecutor } from '../../../../src/background/ports/fenced-executor.ts';
import { HIDDEN, LeftAllowedSites, navigatePort } from '../../../../src/background/ports/navigate.ts';
import type { ExecutionCall } from '../../../../src/pipeline/ports.ts';
import { AdapterRoutes } from '../../../../src/background/ports/routes.ts';
import { ToolStore } from '../../../../src/background/tools/store.ts';
import { createObservationService } from '../../../../src/background/observation/service.ts';
import { DeadlineExceeded } from '../../../../src/base/deadline.ts';
import { Adapter, AdapterRegistry, shopAdapter } from '../../../../src/observation/adapters/index.ts';
import { shopOrderSnapshot } from '../../observation/fixtures/shop-order-snapshot.ts';
import { FakeTabs } from './fake-tabs.ts';

const ORIGIN = 'http://localhost:4100';

describe('routes from adapter URL templates', () => {
  it('fills the id group, and only templates whose other parts are literal', () => {
    /** The path of the route to resource `value` of an adapter at `pattern` whose id is its `group` (undefined: no route). */
    const fill = (pattern: string, group: string, value: string) => {
      const shop = shopAdapter({ origin: 'http://shop.test' });
      const adapter = Adapter.parse({ ...structuredClone(shop), match: { ...shop.match, path: pattern }, resource: { ...shop.resource, id: { read: { from: 'url_group', group } } } });
      const [route, ...more] = new AdapterRoutes(() => [adapter]).routes({ type: shop.resource.type, id: value });
      expect(more).toEqual([]);
      return route?.url.slice('http://shop.test'.length);
    };
    expect(fill('/orders/:id', 'id', 'ORD-1024')).toBe('/orders/ORD-1024');
    expect(fill('/orders/:id', 'id', 'A/B')).toBe('/orders/A%2FB');
    expect(fill('/shops/:shop/orders/:id', 'id', 'X')).toBeUndefined();
    expect(fill('/orders/*', 'id', 'X')).toBeUndefined();
  });

  it('offers the shop adapter’s URL only on origins where it was seen (or pinned), for its resource type', () => {
    const routes = new AdapterRoutes(() => [shopAdapter()]);
    expect(routes.routes({ type: 'order', id: 'ORD-1025' })).toEqual([]);
    routes.sighted(['larkspur-shop.order'], `${ORIGIN}/orders/ORD-1024#x`);
    expect(routes.routes({ type: 'order', id: 'ORD-1025' })).toEqual([{ kind: 'adapter', url: `${ORIGIN}/orders/ORD-1025` }]);
    expect(routes.routes({ type: 'appointment', id: 'APT-1' })).toEqual([]);
    const pinned = new AdapterRoutes(() => [shopAdapter({ origin: 'http://shop.test' })]);
    expect(pinned.routes({ type: 'order', id: 'O1' })).toEqual([{ kind: 'adapter', url: 'http://shop.test/orders/O1' }]);
  });
});

/** The co-pilot's working session, bound to tab 5, which has finished loading. */
async function copilotSessionOnLoadedTab() {
  const tabs = new FakeTabs();
  tabs.status.set(5, 'complete');
  const sessions = new SessionTabs();
  const sid = await sessions.sessionFor('agent:copilot', 5);
  return { tabs, sessions, sid };
}

describe('navigate port', () => {
  beforeEach(() => fakeBrowser.reset());

  it('loads the URL in the session’s tab and waits for it to complete', async () => {
    const { tabs, sessions, sid } = await copilotSessionOnLoadedTab();
    await navigatePort({ sessions, tabs })(`${ORIGIN}/orders/ORD-1024`, { agent_id: 'agent:copilot', session_id: sid }, [ORIGIN]);
    expect(tabs.updated).toEqual([{ tabId: 5, url: `${ORIGIN}/orders/ORD-1024` }]);
    expect(tabs.status.get(5)).toBe('complete');
    expect(tabs.holds).toEqual([{ tabId: 5, origins: [ORIGIN], released: true }]);
  });

  it('a hop the fence stopped (the tab shows the blocked URL of another origin) is LeftAllowedSites naming that origin, and the fence is released', async () => {
    const { tabs, sessions, sid } = await copilotSessionOnLoadedTab();
    tabs.landsOn = () => 'http://127.0.0.1:9/collect?order=ORD-1024';
    const p = navigatePort({ sessions, tabs })(`${ORIGIN}/leave?to=x`, { agent_id: 'agent:copilot', session_id: sid }, [ORIGIN]);
    await expect(p).rejects.toBeInstanceOf(LeftAllowedSites);
    await expect(p).rejects.toMatchObject({ origin: 'http://127.0.0.1:9' });
    expect(tabs.holds.every((h) => h.released)).toBe(true);
  });

  it('a hop the fence stopped on a site Steward has no access to (Chrome hides the address) is LeftAllowedSites too, unnamed', async () => {
    const { tabs, sessions, sid } = await copilotSessionOnLoadedTab();
    tabs.landsOn = () => HIDDEN;
    const p = navigatePort({ sessions, tabs })(`${ORIGIN}/leave?to=x`, { agent_id: 'agent:copilot', session_id: sid }, [ORIGIN]);
    await expect(p).rejects.toBeInstanceOf(LeftAllowedSites);
    await expect(p).rejects.toMatchObject({ origin: undefined, message: expect.stringContaining('one Steward has no access to') });
    expect(tabs.holds.every((h) => h.released)).toBe(true);
  });

  it('any step in the agent’s tab runs fenced to the token’s origins; a navigation it caused that was stopped is SITE_NOT_ALLOWED', async () => {
    const { tabs, sessions, sid } = await copilotSessionOnLoadedTab();
    const inner = { execute: vi.fn(async () => ({ outcome: 'completed' as const })) };
    const fenced = fencedExecutor(inner, { tabOf: (ctx) => sessions.tabOf(ctx.session_id), tabs });
    const call = { ctx: { agent_id: 'agent:copilot', session_id: sid }, allowed_origins: [ORIGIN] } as unknown as ExecutionCall;
    tabs.urls.set(5, `${ORIGIN}/partners`);
    expect(await fenced.execute(call)).toEqual({ outcome: 'completed' });
    expect(tabs.holds).toEqual([{ tabId: 5, origins: [ORIGIN], released: true }]);
    // The click followed a link whose redirect the fence stopped: Chrome's error page shows the blocked URL.
    inner.execute.mockImplementationOnce(async () => (tabs.urls.set(5, 'http://127.0.0.1:9/collect'), { outcome: 'completed' as const }));
    expect(await fenced.execute(call)).toMatchObject({ outcome: 'failed', code: 'SITE_NOT_ALLOWED', origin: 'http://127.0.0.1:9', side_effect_possible: true });
    expect(tabs.holds.every((h) => h.released)).toBe(true);
  });

  it('a new tab the step opened towards another origin (the fence stopped it there) is closed, and the step is SITE_NOT_ALLOWED saying so; the person’s new tab is left alone', async () => {
    const { tabs, sessions, sid } = await copilotSessionOnLoadedTab();
    const inner = { execute: vi.fn(async () => ({ outcome: 'completed' as const })) };
    const fenced = fencedExecutor(inner, { tabOf: (ctx) => sessions.tabOf(ctx.session_id), tabs });
    const call = { ctx: { agent_id: 'agent:copilot', session_id: sid }, allowed_origins: [ORIGIN] } as unknown as ExecutionCall;
    tabs.urls.set(5, `${ORIGIN}/partners`);
    // Three new tabs: a pop-up that stayed on the agent's site; one sent to another origin, showing
    // Chrome's error page for it (the fence blocked it); the person's own, loaded on another site.
    tabs.opens = [6, 7, 8];
    for (const id of tabs.opens) tabs.status.set(id, 'complete');
    tabs.urls.set(6, `${ORIGIN}/offer`);
    tabs.urls.set(7, 'http://127.0.0.1:9/collect?order=ORD-1024');
    tabs.errorPages.add(7);
    tabs.urls.set(8, 'https://news.example/today');
    const report = await fenced.execute(call);
    expect(report).toMatchObject({ outcome: 'failed', code: 'SITE_NOT_ALLOWED', origin: 'http://127.0.0.1:9', side_effect_possible: true });
    expect(report.outcome === 'failed' && report.message).toContain('opened a new tab to http://127.0.0.1:9');
    expect(tabs.closed).toEqual([7]);
    expect(tabs.holds.every((h) => h.released)).toBe(true);
  });

  it('a new tab stopped on a site Chrome hides from Steward, on Chrome’s error page, is closed and reported unnamed; a hidden tab Chrome says nothing more about is left alone', async () => {
    const { tabs, sessions, sid } = await copilotSessionOnLoadedTab();
    const inner = { execute: vi.fn(async () => ({ outcome: 'completed' as const })) };
    const fenced = fencedExecutor(inner, { tabOf: (ctx) => sessions.tabOf(ctx.session_id), tabs });
    const call = { ctx: { agent_id: 'agent:copilot', session_id: sid }, allowed_origins: [ORIGIN] } as unknown as ExecutionCall;
    tabs.urls.set(5, `${ORIGIN}/partners`);
    tabs.opens = [7, 8];
    for (const id of tabs.opens) tabs.status.set(id, 'complete');
    tabs.urls.set(7, HIDDEN);
    tabs.errorPages.add(7);
    // Maybe the person's own: Chrome says nothing more about it.
    tabs.urls.set(8, HIDDEN);
    const report = await fenced.execute(call);
    expect(report).toMatchObject({ outcome: 'failed', code: 'SITE_NOT_ALLOWED', side_effect_possible: true });
    expect(report).not.toHaveProperty('origin');
    expect(report.outcome === 'failed' && report.message).toContain('opened a new tab to another site (one Steward has no access to)');
    expect(tabs.closed).toEqual([7]);
  });

  it('opens a new background tab for a session whose tab was closed, and binds the session to it', async () => {
    const tabs = new FakeTabs();
    const sessions = new SessionTabs();
    const sid = await sessions.sessionFor('agent:copilot', 5);
    await sessions.forgetTab(5);
    await navigatePort({ sessions, tabs })(`${ORIGIN}/`, { agent_id: 'agent:copilot', session_id: sid }, [ORIGIN]);
    // Opened blank, then loaded with the fence up, so no request of it leaves before the fence.
    expect(tabs.created).toEqual(['about:blank']);
    expect(tabs.updated).toEqual([{ tabId: 100, url: `${ORIGIN}/` }]);
    expect(tabs.holds).toEqual([{ tabId: 100, origins: [ORIGIN], released: true }]);
    expect(await sessions.tabOf(sid)).toBe(100);
  });

  it('fails when the navigation never completes, and without a session', async () => {
    const { tabs, sessions, sid } = await copilotSessionOnLoadedTab();
    tabs.onNavigate = (id) => tabs.emit(id, 'loading');
    const navigate = navigatePort({ sessions, tabs });
    vi.useFakeTimers();
    const p = navigate(`${ORIGIN}/`, { agent_id: 'agent:copilot', session_id: sid }, [ORIGIN]);
    const caught = p.catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(60_000);
    vi.useRealTimers();
    expect(await caught).toMatch(/did not finish loading/);
    await expect(navigate(`${ORIGIN}/`, { agent_id: 'agent:copilot' }, [ORIGIN])).rejects.toThrow(/no working session/);
  });
});

describe('the observe port', () => {
  beforeEach(() => fakeBrowser.reset());

  it('observes the session’s tab (never a tab id from the pipeline); contract endpoints are not supported yet', async () => {
    const { tabs, sessions, sid } = await copilotSessionOnLoadedTab();
    const adapters = new AdapterRegistry();
    adapters.register(shopAdapter());
    const observeTab = vi.fn(async () => ({ ok: true as const, data: { ...shopOrderSnapshot({ origin: ORIGIN }), documentToken: 'd1' } }));
    const { ports, observer, routes } = createChromePorts({ sessions, tools: new ToolStore(), observation: { observeTab }, adapters, send: vi.fn(), tabs });

    const state = await ports.observe({ kind: 'tab' }, { type: 'order', id: 'ORD-1024' }, { agent_id: 'agent:copilot', session_id: sid });
    expect(state).toMatchObject({ resource: { type: 'order', id: 'ORD-1024' }, state: 'awaiting_payment' });
    expect(observeTab).toHaveBeenCalledWith(5);
    expect(observer.last(5)?.documentToken).toBe('d1');
    // The observation taught the routes where the shop adapter applies.
    expect(routes.routes({ type: 'order', id: 'ORD-2048' })).toEqual([{ kind: 'adapter', url: `${ORIGIN}/orders/ORD-2048` }]);

    expect(await ports.observe({ kind: 'tab' }, { type: 'order', id: 'ORD-1024' }, { agent_id: 'agent:copilot' })).toBeNull();
    expect(await ports.observe({ kind: 'contract', url: `${ORIGIN}/agent/v1/resources/order/ORD-1024` }, { type: 'order', id: 'ORD-1024' }, { agent_id: 'agent:copilot', session_id: sid })).toBeNull();
    expect(Object.keys(ports.executors).sort()).toEqual(['adapter', 'legacy_inference', 'webmcp']);
  });

  it('a page that does not answer in time is a DeadlineExceeded (the navigator reports TIMEOUT), not "nothing there"', async () => {
    const { tabs, sessions, sid } = await copilotSessionOnLoadedTab();
    const send = vi.fn(() => Promise.reject(new DeadlineExceeded('the page in tab 5 (content/observe)', 30_000)));
    const observeTab = createObservationService(send).observeTab;
    expect(await observeTab(5)).toEqual({ ok: false, error: { code: 'TIMEOUT', message: 'The page in tab 5 did not answer within 30000 ms.', retryable: false } });
    const { ports } = createChromePorts({ sessions, tools: new ToolStore(), observation: { observeTab }, adapters: new AdapterRegistry(), send, tabs });
    send.mockClear();
    await expect(ports.observe({ kind: 'tab' }, { type: 'order', id: 'ORD-1024' }, { agent_id: 'agent:copilot', session_id: sid })).rejects.toBeInstanceOf(DeadlineExceeded);
    // Not retried: the page already had its whole deadline.
    expect(send.mock.calls.filter((c) => (c as unknown[])[2] === 'content/observe')).toHaveLength(1);
  });
});
