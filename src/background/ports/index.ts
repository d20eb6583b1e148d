import type { AdapterRegistry } from '../../observation/adapters/index.ts';
import type { Executor, PipelinePorts, PortContext, Route } from '../../pipeline/ports.ts';
import type { NetworkRecord } from '../../protocol/snapshot.ts';
import type { ObservationService } from '../observation/service.ts';
import type { SessionTabs } from '../core/sessions.ts';
import type { ToolStore } from '../tools/store.ts';
import type { SendToFrame } from '../core/messenger.ts';
import { adapterExecutor } from './adapter-executor.ts';
import { domExecutor } from './dom-executor.ts';
import { fencedExecutor } from './fenced-executor.ts';
import { navigatePort, type TabControl } from './navigate.ts';
import { AdapterRoutes } from './routes.ts';
import { TabObserver, type ObserveOutcome, type ReportedTools, type SiteReading } from './tab-observer.ts';
import { waitForLoaded } from './tab-wait.ts';
import { webmcpExecutor } from './webmcp-executor.ts';
import type { CaptureScreenshot } from './screenshot.ts';
import { DeadlineExceeded } from '../../base/deadline.ts';
import { pageDeadlines } from '../core/page-deadlines.ts';
import { observedFor } from '../tools/agent-view.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';
import type { ResourceRef } from '../../protocol/resource.ts';
import type { PageSettle } from '../../protocol/content-channel.ts';
import type { ContinuationBook } from '../../webmcp/continuations.ts';

/**
 * The pipeline's ports on Chrome (src/pipeline/ports.ts). The pipeline never sees a tab id: ports
 * map the agent's session to its tab (SessionTabs). Every path has an executor: site_contract
 * (the contract path, src/background/contract/: used only for sites that granted Steward a token),
 * webmcp, adapter and legacy_inference. Contract endpoints are observed and routed to through the
 * contract path too; without it they are not observed.
 */

/** What these ports and the tab observer take from the contract path. */
export interface ContractPorts {
  executor: Executor;
  observe(url: string, resource: ResourceRef): Promise<ObservedState | null>;
  routes(resource: ResourceRef): Promise<Route[]>;
  siteState(pageUrl: string, fused: ObservedState): Promise<SiteReading | undefined>;
}

export interface ChromePortsDeps {
  sessions: SessionTabs;
  tools: ToolStore;
  observation: Pick<ObservationService, 'observeTab'>;
  adapters: AdapterRegistry;
  send: SendToFrame;
  tabs: TabControl;
  /** Screenshot evidence of a showing tab (src/background/ports/screenshot.ts). */
  screenshot?: CaptureScreenshot;
  /** Whether agents are shown the pages' debugging tools (a setting; off when not given). */
  showDebuggingTools?: () => Promise<boolean>;
  /** The contract path: sites' contracts and the grants Steward holds (src/background/contract/). */
  contract?: ContractPorts;
  /** The agents' WebMCP calls a page may continue in its next document (src/webmcp/continuations.ts). */
  continuations?: ContinuationBook;
}

const withoutHash = (u: string) => u.split('#')[0];

/** The top frame's recent same-origin JSON responses; an unreachable or odd answer counts as none. */
async function pageNetwork(send: SendToFrame, tabId: number): Promise<NetworkRecord[]> {
  try {
    const reply = await send(tabId, 0, 'content/network', {});
    return reply.ok ? reply.data.records : [];
  } catch {
    return [];
  }
}

/**
 * The top frame's word on when it settled (src/content/act/settle.ts); undefined when it cannot
 * be asked or does not answer by the cap (plus grace): then the observation goes ahead regardless.
 */
async function pageSettle(send: SendToFrame, tabId: number, capMs: number, quietMs?: number): Promise<PageSettle | undefined> {
  try {
    const reply = await send(
      tabId,
      0,
      'content/settle',
      { cap_ms: capMs, ...(quietMs !== undefined ? { quiet_ms: quietMs } : {}) },
      { deadline_ms: Math.min(capMs + pageDeadlines.reply_grace_ms, pageDeadlines.page_reply_ms) },
    );
    return reply.ok ? reply.data : undefined;
  } catch {
    return undefined;
  }
}

export function createChromePorts(deps: ChromePortsDeps) {
  const routes = new AdapterRoutes(() => deps.adapters.list());

  const topFrame = async (tabId: number) => {
    await deps.tools.ready;
    return deps.tools.registry.tab(tabId).find((f) => f.frameId === 0);
  };

  /** The page's tools (registry.pageTools), when the top frame's last report was for this document's URL, with the document that reported them. */
  const topFrameTools = async (tabId: number, url: string): Promise<ReportedTools> => {
    await deps.tools.ready;
    const page = deps.tools.registry.pageTools(tabId);
    if (!page || withoutHash(page.top.url) !== withoutHash(url)) return { tools: [] };
    const { top } = page;
    return { tools: page.tools, document: { ...(top.documentId ? { documentId: top.documentId } : {}), origin: top.origin } };
  };

  const observer = new TabObserver({
    snapshot: (tabId) => deps.observation.observeTab(tabId),
    tools: topFrameTools,
    adapters: () => deps.adapters.list(),
    network: (tabId) => pageNetwork(deps.send, tabId),
    waitLoaded: (tabId) => waitForLoaded(deps.tabs, tabId),
    settle: (tabId, capMs, quietMs) => pageSettle(deps.send, tabId, capMs, quietMs),
    ...(deps.screenshot ? { screenshot: deps.screenshot } : {}),
    ...(deps.contract ? { siteState: deps.contract.siteState } : {}),
  });

  /** Every observation, for the panel or the pipeline, also teaches the routes where adapters apply. */
  const observeTab = async (tabId: number): Promise<ObserveOutcome> => {
    const r = await observer.observe(tabId);
    if (r.ok) routes.sighted(r.tab.adapterIds, r.tab.state.url);
    return r;
  };

  const tabOf = (ctx: PortContext) => deps.sessions.tabOf(ctx.session_id);
  const navigate = navigatePort({ sessions: deps.sessions, tabs: deps.tabs });
  const act = { tabOf, observer, send: deps.send, tabs: deps.tabs };

  const ports: PipelinePorts = {
    async observe(where, resource, ctx) {
      if (where.kind === 'contract') return deps.contract ? deps.contract.observe(where.url, resource) : null;
      const tabId = await tabOf(ctx);
      if (tabId === undefined) return null;
      const r = await observeTab(tabId);
      if (!r.ok && r.error.code === 'TIMEOUT') throw new DeadlineExceeded(`observing tab ${tabId}`, pageDeadlines.page_reply_ms);
      return r.ok ? observedFor(ctx.agent_id, r.tab.state, (await deps.showDebuggingTools?.()) === true) : null;
    },
    navigate,
    // A contract's endpoint outranks an adapter's page (DESIGN §1).
    routes: async (resource) => [...((await deps.contract?.routes(resource)) ?? []), ...routes.routes(resource)],
    executors: {
      ...(deps.contract ? { site_contract: deps.contract.executor } : {}),
      // Every step in the agent's tab is fenced to its origins: what it makes the tab load stays there.
      webmcp: fencedExecutor(webmcpExecutor({ tabOf, send: deps.send, observer, topFrame, tabs: deps.tabs, ...(deps.continuations ? { continuations: deps.continuations } : {}) }), act),
      adapter: fencedExecutor(adapterExecutor(act), act),
      legacy_inference: fencedExecutor(domExecutor({ ...act, navigate }), act),
    },
  };
  return { ports, observer, observeTab, routes };
}
