import { createAgentCalls } from '../../../src/mcp/agent-calls.ts';
import type { AgentCallPorts, BrowserTab, TabImage } from '../../../src/mcp/ports.ts';
import type { AvailableAction } from '../../../src/protocol/action.ts';
import { MemoryTaintLedger } from '../../../src/pipeline/taint.ts';
import type { ResourceRef } from '../../../src/protocol/resource.ts';
import { shopOrderSnapshot } from '../observation/fixtures/shop-order-snapshot.ts';
import { ORIGIN, harness, orderUrl, type Harness } from '../pipeline/fakes.ts';

/**
 * An MCP client's calls over a real pipeline (fake shop, fake IndexedDB) with a fake browser: a
 * tab on the shop, a tab on another allowed site the client's token does not name, and a tab on
 * a site the person never allowed. `events` records the order of observations and taint marks.
 */

export const AGENT = 'agent:mcp-claude-1a2b3c';
const OTHER_ALLOWED = 'http://localhost:4200';
const TABS: BrowserTab[] = [
  { tab_id: 1, url: orderUrl('ORD-1024'), title: 'Order ORD-1024', active: true },
  { tab_id: 2, url: `${OTHER_ALLOWED}/patients/P-7`, title: 'Patient record', active: false },
  { tab_id: 3, url: 'https://mail.example/inbox', title: 'Inbox (3)', active: false },
  { tab_id: 4, url: 'chrome://settings/', title: 'Settings', active: false },
];

export interface AgentSetup {
  h: Harness;
  calls: ReturnType<typeof createAgentCalls>;
  ports: AgentCallPorts;
  ledger: MemoryTaintLedger;
  events: string[];
  submitted: { request: unknown; agent: Parameters<AgentCallPorts['submit']>[1] }[];
  auth: { agent_id: string; token: string };
  tokenId: string;
  tabs: BrowserTab[];
  /** What each tab's page reported as WebMCP tools (none unless a test sets them). */
  pageTools: Map<number, { url: string; actions: AvailableAction[] }>;
  /** What a capture of a tab gives (a refusal unless a test sets it). */
  screenshots: Map<number, TabImage>;
}

export async function agentSetup(opts: { origins?: string[] } = {}): Promise<AgentSetup> {
  const ledger = new MemoryTaintLedger();
  const h = await harness({ pipeline: { taint: ledger } });
  const minted = await h.pipeline.admin.mintToken({
    agent_id: AGENT,
    scope: ['orders:*'],
    resource_scope: 'order:*',
    // The mail site is in the token but not among the allowed sites: still invisible.
    origins: opts.origins ?? [ORIGIN, 'https://mail.example'],
    ttl_ms: 60 * 60_000,
    label: 'Claude Desktop',
  });
  const events: string[] = [];
  const submitted: AgentSetup['submitted'] = [];
  const tabs = TABS.map((t) => ({ ...t }));
  const current = new Map<string, number>();
  const pageTools: AgentSetup['pageTools'] = new Map();
  const screenshots: AgentSetup['screenshots'] = new Map();
  const shown = new Map<string, { tab_id: number; resource: ResourceRef }>();
  const ports: AgentCallPorts = {
    authenticate: (secret) => h.pipeline.admin.authenticate(secret),
    allowedSites: async () => [ORIGIN, OTHER_ALLOWED],
    tabs: async () => {
      events.push('tabs');
      return tabs.map((t) => ({ ...t }));
    },
    lastSeen: () => undefined,
    open: async (url, newTab, origins) => {
      events.push(`open ${url}${newTab ? ' new' : ''} fenced to ${origins.join(' ')}`);
      // The lab-style open redirect: `/leave?to=` sends the tab elsewhere; the fence stops a hop off the origins.
      const to = new URL(url).searchParams.get('to');
      if (to && !origins.includes(new URL(to).origin)) return { left: new URL(to).origin };
      const found = newTab ? undefined : tabs.find((t) => t.url === url);
      if (found) return { tab: found, created: false };
      const tab = { tab_id: 10 + tabs.length, url, title: 'New', active: true };
      tabs.push(tab);
      return { tab, created: true };
    },
    observe: async (tabId): ReturnType<AgentCallPorts['observe']> => {
      events.push(`observe ${tabId}`);
      const url = tabs.find((t) => t.tab_id === tabId)!.url;
      const state = h.shop.observation('ORD-1024', 'adapter', url)!;
      return { ok: true, state, snapshot: shopOrderSnapshot() };
    },
    pageTools: async (tabId) => pageTools.get(tabId),
    screenshot: async (tabId) => {
      events.push(`screenshot ${tabId}`);
      return screenshots.get(tabId) ?? { ok: false, code: 'TAB_NOT_VISIBLE', message: 'not showing', retryable: true };
    },
    taint: async (agentId, source, said) => {
      events.push('taint');
      await ledger.mark(agentId, { at: h.clock.t, source, said });
    },
    tainted: async (agentId) => (await ledger.taintOf(agentId)) !== undefined,
    currentTab: async (agentId) => current.get(agentId),
    setCurrentTab: async (agentId, tabId) => void current.set(agentId, tabId),
    shownResource: async (agentId, tabId) => (shown.get(agentId)?.tab_id === tabId ? shown.get(agentId)!.resource : undefined),
    setShownResource: async (agentId, tabId, resource) => void shown.set(agentId, { tab_id: tabId, resource }),
    actionSettled: async (actionId, ms) => void (await h.pipeline.settled(actionId, ms)),
    sessionFor: async (agentId, tabId) => `ses_${agentId.replace(/\W/g, '')}_${tabId}`,
    submit: (request, agent) => {
      submitted.push({ request, agent });
      return h.pipeline.submit(request, agent);
    },
    actionStatus: (agentId, actionId) => h.pipeline.statusFor(agentId, actionId),
    records: (agentId) => h.pipeline.agentRecords(agentId),
    auditChanged: () => events.push('audit-changed'),
  };
  return { h, calls: createAgentCalls(ports), ports, ledger, events, submitted, auth: { agent_id: AGENT, token: minted.secret }, tokenId: minted.token.token_id, tabs, pageTools, screenshots };
}
