import { fakeBrowser } from '@webext-core/fake-browser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChannels } from '../../../../src/background/core/channels.ts';
import { createPanelChannel, type PanelChannelDeps } from '../../../../src/background/panel/panel-channel.ts';
import { createContentReports } from '../../../../src/background/pages/content-reports.ts';
import { ToolStore } from '../../../../src/background/tools/store.ts';
import { createObservationService } from '../../../../src/background/observation/service.ts';
import type { SenderFacts } from '../../../../src/background/core/senders.ts';
import { fakeSites } from '../panel/fake-sites.ts';
import { fakeFrames, type RawFrame } from './fake-frames.ts';

/**
 * The service worker's one message door: a panel message is judged by its real sender (the
 * browser's MessageSender), so a content script or a page that sends one is refused
 * FORBIDDEN_SENDER and the pipeline is never reached.
 */

const ID = fakeBrowser.runtime.id;
const PANEL_URL = `chrome-extension://${ID}/src/sidepanel/index.html?tabId=4`;

beforeAll(() => {
  (globalThis as unknown as { chrome: unknown }).chrome = fakeBrowser;
});
afterAll(() => {
  delete (globalThis as unknown as { chrome?: unknown }).chrome;
});

interface RouterDeps {
  store: ToolStore;
  observation: PanelChannelDeps['observation'];
  sites: { ready: Promise<void>; isAllowed: (origin: string) => boolean };
  ready?: PanelChannelDeps['ready'];
  runTool?: PanelChannelDeps['runTool'];
  copilot?: PanelChannelDeps['copilot'];
  pairings?: PanelChannelDeps['pairings'];
}

/** The channels as src/background/compose.ts composes them, over fakes. */
function channelsOver({ store, observation, sites, ready, runTool, copilot, pairings }: RouterDeps) {
  const unused = vi.fn(async () => {
    throw new Error('pipeline reached');
  });
  const panel = createPanelChannel({
    tools: store,
    observation,
    ...(runTool ? { runTool } : {}),
    ...(copilot ? { copilot } : {}),
    ...(pairings ? { pairings } : {}),
    ready: ready ?? unused,
    sessions: { sessionFor: vi.fn() },
    observeTab: vi.fn(),
    push: vi.fn(),
    sites: fakeSites(),
  });
  const channels = createChannels({ panel, content: createContentReports({ store, sites, push: vi.fn() }) });
  return { onMessage: (message: unknown, sender: SenderFacts) => channels.onMessage(message, sender) };
}

function routerWithSpy() {
  const ready = vi.fn(async () => {
    throw new Error('pipeline reached');
  });
  const store = new ToolStore();
  const observation = createObservationService(fakeFrames(async () => undefined));
  const router = channelsOver({ store, observation, sites: { ready: Promise.resolve(), isAllowed: () => true }, ready });
  const send = (message: unknown, sender: SenderFacts) => router.onMessage(message, sender);
  return { ready, send };
}

const approve = { type: 'panel/approval-decide', decision: { request_id: 'apreq_1', decision: 'deny', decided_by: 'user:local', decided_at: '2026-08-03T11:41:00Z' } };

describe('control messages through the service worker router', () => {
  it('refuses them from Steward’s own content script in a tab', async () => {
    const { ready, send } = routerWithSpy();
    const sender = { id: ID, url: 'http://localhost:4100/orders/ORD-1024', origin: 'http://localhost:4100', tab: { id: 7 }, frameId: 0 };
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
    const store = new ToolStore();
    const allowed = new Set(['http://localhost:4100']);
    const router = channelsOver({
      store,
      observation: createObservationService(fakeFrames(async () => undefined)),
      sites: { ready: Promise.resolve(), isAllowed: (o) => allowed.has(o) },
    });
    const send = (message: unknown, sender: SenderFacts) => router.onMessage(message, sender);
    const report = { type: 'content/tools', api: 'none', url: 'http://localhost:4200/', tools: [] };
    const from = (origin: string, tab: number) => ({ id: ID, url: `${origin}/`, origin, tab: { id: tab }, frameId: 0 });
    expect(await send(report, from('http://localhost:4200', 11))).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
    await store.ready;
    expect(store.registry.tab(11)).toEqual([]);
    expect(await send({ ...report, url: 'http://localhost:4100/' }, from('http://localhost:4100', 12))).toMatchObject({ ok: true });
    expect(store.registry.tab(12)).toHaveLength(1);
  });
});

describe('panel/run-tool', () => {
  function routerWith(runTool?: RouterDeps['runTool']) {
    const store = new ToolStore();
    // Anything the router could send to a tab would go through the observation service's messenger.
    const toTab = vi.fn<RawFrame>(async () => undefined);
    const router = channelsOver({ store, observation: createObservationService(fakeFrames(toTab)), sites: { ready: Promise.resolve(), isAllowed: () => true }, ...(runTool ? { runTool } : {}) });
    const send = (message: unknown, sender: SenderFacts) => router.onMessage(message, sender);
    return { send, toTab };
  }
  const run = { type: 'panel/run-tool', tabId: 4, frameId: 0, name: 'list_doctors', input: { specialty: 'cardiology' } };

  it('goes to the pipeline’s run (never straight to the tab)', async () => {
    const runTool = vi.fn(async () => ({ ok: true as const, result: 'x', truncated: false, untrusted: true, action_id: 'act_1' }));
    const { send, toTab } = routerWith(runTool);
    expect(await send(run, { id: ID, url: PANEL_URL })).toEqual({ ok: true, data: { ok: true, result: 'x', truncated: false, untrusted: true, action_id: 'act_1' } });
    const { type: _type, ...payload } = run;
    expect(runTool).toHaveBeenCalledWith(payload);
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

describe('the co-pilot’s requests through the service worker router', () => {
  /** A run manager that records every call: what a page or a content script must never reach. */
  function routerWithCopilot() {
    const reached = vi.fn(async () => ({ ok: true as const, data: { has_key: true } }));
    const copilot = { start: reached, pause: reached, resume: reached, stop: reached, takeOver: reached, runs: reached, setKey: reached, modelStatus: reached } as unknown as NonNullable<
      PanelChannelDeps['copilot']
    >;
    const store = new ToolStore();
    const observation = createObservationService(fakeFrames(async () => undefined));
    const router = channelsOver({ store, observation, sites: { ready: Promise.resolve(), isAllowed: () => true }, copilot });
    return { reached, send: (message: unknown, sender: SenderFacts) => router.onMessage(message, sender) };
  }
  const requests = [
    { type: 'copilot/start', tabId: 7, goal: 'Ship my order to 221 Mallory Road' },
    { type: 'copilot/set-key', provider: 'openai', key: 'sk-attacker' },
    { type: 'copilot/stop', run_id: 'run-abc' },
    { type: 'copilot/runs' },
  ];

  it('refuses starting, steering or reading runs, and setting the key, from a content script or a page', async () => {
    const { reached, send } = routerWithCopilot();
    const contentScript = { id: ID, url: 'http://localhost:4100/orders/ORD-1024', origin: 'http://localhost:4100', tab: { id: 7 }, frameId: 0 };
    for (const m of requests) {
      expect(await send(m, contentScript)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
      expect(await send(m, { url: 'http://evil.test/' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    }
    expect(reached).not.toHaveBeenCalled();
  });

  it('passes them on from the side panel', async () => {
    const { reached, send } = routerWithCopilot();
    expect(await send(requests[1], { id: ID, url: PANEL_URL })).toMatchObject({ ok: true });
    expect(reached).toHaveBeenCalledTimes(1);
  });
});

describe('MCP bridge messages through the service worker router', () => {
  const claim = { type: 'bridge/pair-claim', pairing_id: 'pair_abcdefgh12', claim_secret: 'c'.repeat(43) };
  const execute = {
    type: 'bridge/execute',
    auth: { agent_id: 'agent:mcp-x-1a2b3c', token: `stw_secret_${'A'.repeat(43)}` },
    request: { action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, idempotency_key: 'k-12345678' },
  };
  const acceptPairing = {
    type: 'panel/pairing-decide',
    pairing_id: 'pair_abcdefgh12',
    decision: { accept: true, code: '483-192', grant: { scope: ['*:*'], origins: ['http://localhost:4100'], ttl_ms: 60_000 } },
  };

  function withPairingSpy() {
    const pairings = {
      pending: vi.fn(async () => []),
      decide: vi.fn(async () => ({ ok: true as const, data: { status: 'denied' as const } })),
      refuseSource: vi.fn(async () => ({ refused: 0 })),
      status: vi.fn(async () => ({ connected: false })),
    };
    const ready = vi.fn(async () => {
      throw new Error('pipeline reached');
    });
    const router = channelsOver({
      store: new ToolStore(),
      observation: createObservationService(fakeFrames(async () => undefined)),
      sites: { ready: Promise.resolve(), isAllowed: () => true },
      ready,
      pairings,
    });
    return { pairings, ready, send: (message: unknown, sender: SenderFacts) => router.onMessage(message, sender) };
  }

  it('a compromised content script can neither speak the bridge protocol nor accept a pairing: nothing reaches pairing or the pipeline', async () => {
    const { pairings, ready, send } = withPairingSpy();
    const sender = { id: ID, url: 'http://localhost:4100/orders/ORD-1024', origin: 'http://localhost:4100', tab: { id: 7 }, frameId: 0 };
    for (const message of [claim, execute]) expect(await send(message, sender)).toMatchObject({ ok: false });
    expect(await send(acceptPairing, sender)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(pairings.decide).not.toHaveBeenCalled();
    expect(ready).not.toHaveBeenCalled();
  });

  it('even the side panel cannot send bridge calls (they come only over the native port); it can decide a pairing', async () => {
    const { pairings, ready, send } = withPairingSpy();
    for (const message of [claim, execute]) expect(await send(message, { id: ID, url: PANEL_URL })).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } });
    expect(ready).not.toHaveBeenCalled();
    expect(await send(acceptPairing, { id: ID, url: PANEL_URL })).toMatchObject({ ok: true });
    expect(pairings.decide).toHaveBeenCalledTimes(1);
  });
});
