import { fakeBrowser } from '@webext-core/fake-browser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createControlRouter } from '../../../../src/background/panel/router.ts';
import { PanelPorts } from '../../../../src/background/panel/panel-ports.ts';
import { createRouter } from '../../../../src/background/router.ts';
import { ToolStore } from '../../../../src/background/tools/store.ts';
import { createObservationService } from '../../../../src/background/observation/service.ts';
import { fakeSites } from './fake-sites.ts';

/**
 * The service worker's single router with the control route plugged in: a control message is
 * judged by its real sender (Chrome's MessageSender), so a content script or a page that sends
 * one is refused FORBIDDEN_SENDER and the pipeline is never reached.
 */

const ID = fakeBrowser.runtime.id;
const PANEL_URL = `chrome-extension://${ID}/src/sidepanel/index.html?tabId=4`;

beforeAll(() => {
  (globalThis as unknown as { chrome: unknown }).chrome = fakeBrowser;
});
afterAll(() => {
  delete (globalThis as unknown as { chrome?: unknown }).chrome;
});

function routerWithSpy() {
  const ready = vi.fn(async () => {
    throw new Error('pipeline reached');
  });
  const control = createControlRouter({ ready, sessions: { sessionFor: vi.fn() }, observeTab: vi.fn(), push: vi.fn(), sites: fakeSites() });
  const store = new ToolStore(fakeBrowser.storage.session as unknown as chrome.storage.StorageArea);
  const observation = createObservationService(async () => undefined);
  const router = createRouter({ store, panels: new PanelPorts(), observation, sites: { ready: Promise.resolve(), isAllowed: () => true }, control });
  const send = (message: unknown, sender: chrome.runtime.MessageSender) =>
    new Promise<unknown>((resolve) => {
      router.onMessage(message, sender, resolve);
    });
  return { ready, send };
}

const approve = { type: 'panel/approval-decide', decision: { request_id: 'apreq_1', decision: 'deny', decided_by: 'user:local', decided_at: '2026-08-03T11:41:00Z' } };

describe('control messages through the service worker router', () => {
  it('refuses them from Steward’s own content script in a tab', async () => {
    const { ready, send } = routerWithSpy();
    const sender = { id: ID, url: 'http://localhost:4100/orders/ORD-1024', origin: 'http://localhost:4100', tab: { id: 7 } as chrome.tabs.Tab, frameId: 0 };
    expect(await send(approve, sender)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(await send({ type: 'panel/token-mint', agent_id: 'agent:x', scope: ['*:*'], resource_scope: '*', origins: ['http://localhost:4100'], ttl_ms: 1000 }, sender)).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN_SENDER' },
    });
    expect(ready).not.toHaveBeenCalled();
  });

  it('refuses them from another extension or an unknown page', async () => {
    const { ready, send } = routerWithSpy();
    expect(await send(approve, { id: 'another-extension', url: PANEL_URL })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(await send(approve, { url: 'http://evil.test/' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(ready).not.toHaveBeenCalled();
  });

  it('passes them on from the side panel (here the pipeline is reached, and fails as rigged)', async () => {
    const { ready, send } = routerWithSpy();
    expect(await send(approve, { id: ID, url: PANEL_URL })).toMatchObject({ ok: false, error: { code: 'NOT_READY' } });
    expect(ready).toHaveBeenCalledTimes(1);
  });
});

describe('reports from pages of sites Steward is not allowed on', () => {
  it('are refused SITE_NOT_ALLOWED and leave the tool registry untouched', async () => {
    const store = new ToolStore(fakeBrowser.storage.session as unknown as chrome.storage.StorageArea);
    const allowed = new Set(['http://localhost:4100']);
    const router = createRouter({
      store,
      panels: new PanelPorts(),
      observation: createObservationService(async () => undefined),
      sites: { ready: Promise.resolve(), isAllowed: (o) => allowed.has(o) },
    });
    const send = (message: unknown, sender: chrome.runtime.MessageSender) => new Promise<unknown>((resolve) => router.onMessage(message, sender, resolve));
    const report = { type: 'content/tools', api: 'none', url: 'http://localhost:4200/', tools: [] };
    const from = (origin: string, tab: number) => ({ id: ID, url: `${origin}/`, origin, tab: { id: tab } as chrome.tabs.Tab, frameId: 0 });
    expect(await send(report, from('http://localhost:4200', 11))).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
    await store.ready;
    expect(store.registry.tab(11)).toEqual([]);
    expect(await send({ ...report, url: 'http://localhost:4100/' }, from('http://localhost:4100', 12))).toMatchObject({ ok: true });
    expect(store.registry.tab(12)).toHaveLength(1);
  });
});

describe('panel/run-tool', () => {
  function routerWith(runTool?: Parameters<typeof createRouter>[0]['runTool']) {
    const store = new ToolStore(fakeBrowser.storage.session as unknown as chrome.storage.StorageArea);
    // Anything the router could send to a tab would go through the observation service's messenger.
    const toTab = vi.fn(async () => undefined);
    const router = createRouter({ store, panels: new PanelPorts(), observation: createObservationService(toTab), sites: { ready: Promise.resolve(), isAllowed: () => true }, ...(runTool ? { runTool } : {}) });
    const send = (message: unknown, sender: chrome.runtime.MessageSender) => new Promise<unknown>((resolve) => router.onMessage(message, sender, resolve));
    return { send, toTab };
  }
  const run = { type: 'panel/run-tool', tabId: 4, frameId: 0, name: 'list_doctors', input: { specialty: 'cardiology' } };

  it('goes to the pipeline’s run (never straight to the tab)', async () => {
    const runTool = vi.fn(async () => ({ ok: true as const, result: 'x', truncated: false, untrusted: true, action_id: 'act_1' }));
    const { send, toTab } = routerWith(runTool);
    expect(await send(run, { id: ID, url: PANEL_URL })).toEqual({ ok: true, data: { ok: true, result: 'x', truncated: false, untrusted: true, action_id: 'act_1' } });
    expect(runTool).toHaveBeenCalledWith({ ...run });
    expect(toTab).not.toHaveBeenCalled();
  });

  it('is refused without a pipeline, and from anyone but the side panel', async () => {
    const { send, toTab } = routerWith();
    expect(await send(run, { id: ID, url: PANEL_URL })).toMatchObject({ ok: false, error: { code: 'NOT_READY' } });
    const runTool = vi.fn();
    const other = routerWith(runTool);
    expect(await other.send(run, { url: 'http://evil.test/' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(runTool).not.toHaveBeenCalled();
    expect(toTab).not.toHaveBeenCalled();
  });
});
