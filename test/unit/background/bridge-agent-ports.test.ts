import { fakeBrowser } from '@webext-core/fake-browser';
import { describe, expect, it } from 'vitest';
import { chromeAgentPorts, type ChromeAgentPortsDeps } from '../../../src/background/bridge/agent-ports.ts';
import { AgentTabs } from '../../../src/background/bridge/current-tabs.ts';
import { chromeTabControl } from '../../../src/background/ports/navigate.ts';
import { chromeTabEvents } from '../../../src/background/ports/tab-wait.ts';

const AGENT = 'agent:mcp-claude-1a2b3c';

function ports(current = new AgentTabs()) {
  const deps: ChromeAgentPortsDeps = {
    pipeline: () => Promise.reject(new Error('not used')),
    sites: { list: async () => ['http://localhost:4100'] },
    tabs: chromeTabControl(chromeTabEvents()),
    observer: { last: () => undefined },
    observeTab: () => Promise.reject(new Error('not used')),
    taint: async () => undefined,
    taintOf: async () => undefined,
    sessions: { sessionFor: async () => 'ses_1' },
    current,
    push: () => undefined,
  };
  return chromeAgentPorts(deps);
}

describe('external agents on Chrome', () => {
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
