import { fakeBrowser } from '@webext-core/fake-browser';
import { describe, expect, it } from 'vitest';
import { chromeAgentPorts, type ChromeAgentPortsDeps } from '../../../../src/background/mcp/agent-ports.ts';
import { AgentTabs } from '../../../../src/background/mcp/current-tabs.ts';
import { chromeTabControl } from '../../../../src/background/ports/navigate.ts';
import { chromeTabEvents } from '../../../../src/background/ports/tab-wait.ts';
import { ToolRegistry } from '../../../../src/background/tools/registry.ts';

const AGENT = 'agent:mcp-claude-1a2b3c';

function ports(current = new AgentTabs(), registry = new ToolRegistry(), showDebugging = false) {
  const deps: ChromeAgentPortsDeps = {
    pipeline: () => Promise.reject(new Error('not used')),
    sites: { list: async () => ['http://localhost:4100'] },
    tabs: chromeTabControl(chromeTabEvents()),
    observer: { last: () => undefined },
    observeTab: () => Promise.reject(new Error('not used')),
    tools: { ready: Promise.resolve(), registry },
    showDebuggingTools: async () => showDebugging,
    captureTab: () => Promise.reject(new Error('not used')),
    taint: async () => undefined,
    taintOf: async () => undefined,
    sessions: { sessionFor: async () => 'ses_1' },
    current,
    push: () => undefined,
  };
  return chromeAgentPorts(deps);
}

const tool = (name: string, annotations: Record<string, boolean>) => ({
  name,
  description: `${name} does things`,
  inputSchema: { type: 'object', properties: {} },
  annotations,
  kind: 'imperative' as const,
});

describe('external agents on Chrome', () => {
  it("offers a tab's page tools with Steward's reading of their risk, and its debugging tools only when the person shows them", async () => {
    const registry = new ToolRegistry();
    registry.report(
      {
        tabId: 5,
        frameId: 0,
        documentId: 'doc-1',
        origin: 'http://localhost:4200',
        url: 'http://localhost:4200/book',
        api: 'polyfill',
        tools: [
          tool('find_slots', { readOnlyHint: true }),
          tool('book_slot', { consequentialHint: true }),
          tool('pay_invoice', { readOnlyHint: true }),
          tool('dump_state', { readOnlyHint: true, debugging: true }),
        ],
      },
      new Date(),
    );
    const offered = await ports(new AgentTabs(), registry).pageTools(5);
    expect(offered?.url).toBe('http://localhost:4200/book');
    const byName = Object.fromEntries((offered?.actions ?? []).map((a) => [a.action, a]));
    expect(Object.keys(byName)).toEqual(['find_slots', 'book_slot', 'pay_invoice']);
    expect(byName.find_slots).toMatchObject({ read_only: true, requires_approval: false });
    expect(byName.book_slot).toMatchObject({ read_only: false, consequential: true, requires_approval: true });
    // A page calling a payment tool read-only does not make it so.
    expect(byName.pay_invoice).toMatchObject({ read_only: false, payment: true, requires_approval: true });
    const shown = await ports(new AgentTabs(), registry, true).pageTools(5);
    expect(shown?.actions.map((a) => a.action)).toContain('dump_state');
    expect(await ports(new AgentTabs(), registry).pageTools(6)).toBeUndefined();
  });

  it("remembers the agent's current tab across a worker restart (chrome.storage.session), never in local storage", async () => {
    await ports().setCurrentTab(AGENT, 7);
    expect(await ports(new AgentTabs()).currentTab(AGENT)).toBe(7);
    expect(await ports(new AgentTabs()).currentTab('agent:mcp-other-9f9f')).toBeUndefined();
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
  });

  it('lists web tabs with their URL and title as the browser reports them', async () => {
    await fakeBrowser.tabs.create({ url: 'http://localhost:4100/orders/ORD-1024', active: true });
    const tabs = await ports().tabs();
    expect(tabs.map((t) => t.url)).toContain('http://localhost:4100/orders/ORD-1024');
  });

  it('focuses the tab already showing the URL instead of opening another', async () => {
    const existing = await fakeBrowser.tabs.create({ url: 'http://localhost:4100/orders/ORD-1024', active: false });
    const r = await ports().open('http://localhost:4100/orders/ORD-1024', false, ['http://localhost:4100']);
    expect(r).toMatchObject({ created: false, tab: { tab_id: existing.id, active: true } });
  });
});
