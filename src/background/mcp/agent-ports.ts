import type { AgentCallPorts, BrowserTab, TabImage } from '../../mcp/ports.ts';
import { webmcpActions } from '../../observation/fusion/webmcp-actions.ts';
import { AvailableAction } from '../../protocol/action.ts';
import type { ToolStore } from '../tools/store.ts';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import type { PanelPush } from '../../protocol/panel-channel.ts';
import { browser } from '../core/browser.ts';
import type { SitesControl } from '../panel/sites.ts';
import type { SessionTabs } from '../core/sessions.ts';
import { fencedLoad, LeftAllowedSites, type TabControl } from '../ports/navigate.ts';
import type { ObserveOutcome, TabObserver } from '../ports/tab-observer.ts';
import { waitForLoaded } from '../ports/tab-wait.ts';
import type { AgentTabs } from './current-tabs.ts';
import type { Phrase } from '../../protocol/phrase.ts';

/** An external agent's calls on Chrome: tabs from chrome.tabs, observations and the pipeline as the co-pilot has them. */
export interface ChromeAgentPortsDeps {
  pipeline: () => Promise<Pipeline>;
  sites: Pick<SitesControl, 'list'>;
  tabs: TabControl;
  observer: Pick<TabObserver, 'last'>;
  /** Observations as agents receive them (observeForAgents: no debugging tools unless allowed). */
  observeTab(tabId: number): Promise<ObserveOutcome>;
  /** The WebMCP tool registry (what each tab's content script reported). */
  tools: Pick<ToolStore, 'ready' | 'registry'>;
  showDebuggingTools(): Promise<boolean>;
  captureTab(tabId: number): Promise<TabImage>;
  taint(agentId: string, source: string, said: Phrase): Promise<void>;
  taintOf(agentId: string): Promise<unknown>;
  sessions: Pick<SessionTabs, 'sessionFor'>;
  current: AgentTabs;
  push(message: PanelPush): void;
}

const withoutHash = (u: string) => u.split('#')[0];

type ChromeTab = { id?: number; url?: string; title?: string; active?: boolean; windowId?: number; status?: string };

const asBrowserTab = (t: ChromeTab): BrowserTab | undefined => (t.id !== undefined && t.url ? { tab_id: t.id, url: t.url, title: t.title ?? '', active: t.active === true } : undefined);

export function chromeAgentPorts(deps: ChromeAgentPortsDeps): AgentCallPorts {
  async function allTabs(): Promise<ChromeTab[]> {
    return (await browser.tabs.query({})) as ChromeTab[];
  }

  async function loaded(tabId: number, created: boolean): Promise<{ tab: BrowserTab; created: boolean } | { error: string }> {
    if (!(await waitForLoaded(deps.tabs, tabId))) return { error: `Tab ${tabId} did not finish loading.` };
    const tab = asBrowserTab((await browser.tabs.get(tabId)) as ChromeTab);
    return tab ? { tab, created } : { error: `Tab ${tabId} shows no web page.` };
  }

  return {
    authenticate: async (secret) => (await deps.pipeline()).admin.authenticate(secret),
    allowedSites: () => deps.sites.list(),
    tabs: async () => (await allTabs()).flatMap((t) => asBrowserTab(t) ?? []),
    lastSeen(tabId, url) {
      const state = deps.observer.last(tabId)?.state;
      if (!state || withoutHash(state.url) !== withoutHash(url)) return undefined;
      return { ...state.resource, state: state.state, state_version: state.state_version };
    },
    async open(url, newTab, origins) {
      try {
        const existing = newTab ? undefined : (await allTabs()).find((t) => t.url === url && t.id !== undefined);
        if (existing?.id !== undefined) {
          await browser.tabs.update(existing.id, { active: true });
          if (existing.windowId !== undefined) await browser.windows.update(existing.windowId, { focused: true }).catch(() => undefined);
          return await loaded(existing.id, false);
        }
        // Opened blank, then loaded with the fence up: no hop of it can reach another origin.
        const tabId = await fencedLoad(deps.tabs, { active: true }, url, origins);
        return await loaded(tabId, true);
      } catch (error) {
        if (error instanceof LeftAllowedSites) return { left: error.origin ?? 'a site Steward has no access to' };
        return { error: `Opening ${url} failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 1000) };
      }
    },
    async observe(tabId) {
      const r = await deps.observeTab(tabId);
      return r.ok ? { ok: true, state: r.tab.state, snapshot: r.tab.snapshot } : r;
    },
    async pageTools(tabId) {
      await deps.tools.ready;
      const offered = deps.tools.registry.pageTools(tabId);
      if (!offered) return undefined;
      const show = await deps.showDebuggingTools();
      const { actions } = webmcpActions(show ? offered.tools : offered.tools.filter((t) => t.annotations.debugging !== true));
      return { url: offered.top.url, actions: actions.flatMap((a) => AvailableAction.safeParse(a).data ?? []) };
    },
    screenshot: (tabId) => deps.captureTab(tabId),
    taint: (agentId, source, said) => deps.taint(agentId, source, said),
    tainted: async (agentId) => (await deps.taintOf(agentId)) !== undefined,
    currentTab: (agentId) => deps.current.current(agentId),
    setCurrentTab: (agentId, tabId) => deps.current.set(agentId, tabId),
    shownResource: (agentId, tabId) => deps.current.shown(agentId, tabId),
    setShownResource: (agentId, tabId, resource) => deps.current.setShown(agentId, tabId, resource),
    sessionFor: (agentId, tabId) => deps.sessions.sessionFor(agentId, tabId),
    submit: async (request, agent) => (await deps.pipeline()).submit(request, agent),
    actionStatus: async (agentId, actionId) => (await deps.pipeline()).statusFor(agentId, actionId),
    actionSettled: async (actionId, ms) => void (await (await deps.pipeline()).settled(actionId, ms)),
    records: async (agentId) => (await deps.pipeline()).agentRecords(agentId),
    auditChanged: () => deps.push({ type: 'panel/audit-changed' }),
  };
}
