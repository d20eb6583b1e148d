import { AdapterRegistry, shopAdapter } from '../../observation/adapters/index.ts';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import { createPanelChannel } from '../panel/panel-channel.ts';
import type { SitesControl } from '../panel/sites.ts';
import type { SendToFrame } from '../pages/messenger.ts';
import type { OpenPanels } from '../panel/open-panels.ts';
import type { ObservationService } from '../observation/service.ts';
import { PURGE_ALARM, RECHECK_ALARM, ensureAlarms } from './alarms.ts';
import { ApprovalAnnouncer, chromeAnnounceApis } from './approval-announcer.ts';
import { PipelineService } from './service.ts';
import { chromeAuditAnchor } from './audit-anchor.ts';
import { SessionTabs } from './sessions.ts';
import { StorageTaintLedger } from './agent-taint.ts';
import { StorageWrittenControls } from './written-controls.ts';
import { createChromePorts } from '../ports/index.ts';
import { chromeTabControl } from '../ports/navigate.ts';
import { chromeTabEvents } from '../ports/tab-wait.ts';
import { chromeScreenshots, chromeTabImage } from '../ports/screenshot.ts';
import { CaptureBudget } from '../ports/capture-budget.ts';
import type { ToolStore } from '../tools/store.ts';
import { runToolFromPanel, type PanelRunRequest } from '../tools/run-from-panel.ts';
import { createChromeCopilot } from '../copilot/chrome-copilot.ts';
import { agentsSeeDebuggingTools, observeForAgents } from '../tools/agent-view.ts';
import { wireBridge } from '../bridge/wire-bridge.ts';
import { wireAuditExport } from '../audit-export/wire-export.ts';
import { createNativeService } from '../native/native-service.ts';
import { chromeTabPage } from '../native/tab-page.ts';
import type { ManagedPolicy } from '../policy/managed-policy.ts';
import { createChromePresence } from '../presence/chrome-presence.ts';
import type { AgentPresence } from '../presence/agent-presence.ts';

/**
 * Assembles the Intent-to-Transaction pipeline on Chrome: IndexedDB stores, ports onto tabs,
 * approval announcements, alarms. Returns the panel channel's handler table and the handlers
 * service-worker.ts registers at top level (MV3 wakes the worker only for listeners
 * registered synchronously).
 */
export function wirePipeline(deps: {
  tools: ToolStore;
  panels: OpenPanels;
  observation: ObservationService;
  /** Messages to tabs, gated by site (src/background/pages/messenger.ts). */
  send: SendToFrame;
  sites: SitesControl;
  /** The organisation's managed policy, applied at every door. */
  policy: ManagedPolicy;
}) {
  const adapters = new AdapterRegistry();
  // The demo shop's adapter (matches by path and the shop's own markers, on any origin).
  adapters.register(shopAdapter());
  const sessions = new SessionTabs();
  const taint = new StorageTaintLedger();
  const tabs = chromeTabControl(chromeTabEvents());
  const send = deps.send;
  // The native path: sites that publish an agent contract and granted Steward a token.
  const native = createNativeService({
    allowed: async (origin) => (await deps.sites.list()).includes(origin),
    tabPage: chromeTabPage((tabId) => chromePorts.observer.last(tabId)),
    recheck: async (actionId) => (await live.ready).recheck(actionId),
    push: (m) => deps.panels.push(m),
  });
  // Chrome's capture quota is the extension's: observations and agents' screenshots share it.
  const captures = new CaptureBudget();
  const chromePorts = createChromePorts({
    sessions,
    tools: deps.tools,
    observation: deps.observation,
    adapters,
    send,
    tabs,
    screenshot: chromeScreenshots(Date.now, captures),
    showDebuggingTools: agentsSeeDebuggingTools,
    native,
  });

  let pipeline: Pipeline | undefined;
  const announceApis = chromeAnnounceApis();
  const announcer = new ApprovalAnnouncer(deps.panels, async () => (pipeline ? pipeline.admin.pendingCount() : 0), announceApis);
  // Every audit entry, also to the organisation's syslog collector when a target is set (src/background/audit-export/).
  const auditExport = wireAuditExport({
    exporter: async () => (await live.ready).auditExport,
    post: (batch) => bridge.link.post(batch) || `steward-bridge is not connected: ${bridge.link.status().problem ?? 'no link'}`,
    push: (m) => deps.panels.push(m),
    policy: deps.policy,
  });
  // Who acts on which tab (issue 30.4): redrawn whenever an action, a card or a run changes.
  const drawn: { presence?: AgentPresence } = {};
  const presenceChanged = () => drawn.presence?.refresh();
  const live = new PipelineService({
    ports: chromePorts.ports,
    notifier: {
      queued: (request) => {
        announcer.queued(request);
        presenceChanged();
      },
      settled: (requestId) => {
        announcer.settled(requestId);
        presenceChanged();
      },
    },
    auditAnchor: chromeAuditAnchor(),
    auditExport: auditExport.ports,
    taint,
    written: new StorageWrittenControls(),
    policy: () => deps.policy.current(),
    policyRead: deps.policy.ready,
    onReady: (p) => {
      pipeline = p;
      p.onActivity = presenceChanged;
      void announcer.refreshBadge();
    },
  });

  /** The person's own Run in the side panel: through the pipeline, audited, shown in Activity. */
  async function runTool(request: PanelRunRequest) {
    await deps.tools.ready;
    try {
      return await runToolFromPanel(
        {
          registry: deps.tools.registry,
          pipeline: () => live.ready,
          observeTab: async (tabId) => {
            const r = await chromePorts.observeTab(tabId);
            return r.ok ? { ok: true, state: r.tab.state } : { ok: false, message: `${r.error.code}: ${r.error.message}`.slice(0, 1000) };
          },
          sessionFor: (agentId, tabId) => sessions.sessionFor(agentId, tabId),
        },
        request,
      );
    } finally {
      deps.panels.push({ type: 'panel/audit-changed' });
    }
  }

  async function onAlarm(alarm: { name: string }): Promise<void> {
    if (auditExport.onAlarm(alarm.name)) return;
    if (alarm.name !== PURGE_ALARM && alarm.name !== RECHECK_ALARM) return;
    const pipeline = await live.ready;
    if (alarm.name === PURGE_ALARM) {
      await pipeline.admin.purge();
      await announcer.refreshBadge();
    } else {
      bridge.link.ensure();
      if ((await pipeline.recheckOpen()).length > 0) deps.panels.push({ type: 'panel/audit-changed' });
    }
  }

  function onTabRemoved(tabId: number): void {
    void copilot.onTabRemoved(tabId);
    drawn.presence?.forgetTab(tabId);
    chromePorts.observer.forget(tabId);
    void sessions.forgetTab(tabId);
  }

  /** Starts recovery now (the worker may have been woken by an alarm or a tab event, not a message). */
  function start(): void {
    live.ready.catch((e) => console.error('pipeline start failed', e));
    // Runs that were active when the worker stopped resume once their actions are recovered.
    live.recovered
      .then(() => copilot.restore())
      .then(async () => copilot.policyChanged((await deps.policy.read()).policy))
      .catch((e) => console.error('co-pilot restore failed', e))
      // Badges and indicators left from before a restart are redrawn from the records (or cleared).
      .finally(presenceChanged);
    ensureAlarms().catch((e) => console.warn('alarms', e));
    // Entries appended while the worker was stopped (or not yet taken by the collector) go out now.
    auditExport.wake();
  }

  /** Marks an agent as having been given page-derived content outside the pipeline (the co-pilot's prompts): see src/pipeline/taint.ts. */
  function taintAgent(agentId: string, source: string): Promise<void> {
    return taint.mark(agentId, { at: Date.now(), source });
  }

  const observeAsAgent = observeForAgents(chromePorts.observeTab, agentsSeeDebuggingTools);

  // The MCP bridge: external agents' calls and pairing (src/background/bridge/).
  const bridge = wireBridge({
    pipeline: () => live.ready,
    sites: deps.sites,
    tabs,
    observer: chromePorts.observer,
    observeTab: observeAsAgent,
    tools: deps.tools,
    showDebuggingTools: agentsSeeDebuggingTools,
    captureTab: chromeTabImage(captures),
    taint: taintAgent,
    taintOf: (agentId) => taint.taintOf(agentId),
    sessions,
    panels: deps.panels,
    announceApis,
    policy: deps.policy,
    auditExport: { result: (r) => auditExport.result(r), linkUp: () => auditExport.wake() },
  });

  const copilot = createChromeCopilot({
    pipeline: () => live.ready,
    sessionFor: (agentId, tabId) => sessions.sessionFor(agentId, tabId),
    taint: taintAgent,
    observeTab: observeAsAgent,
    tabStatus: (tabId) => deps.sites.tabStatus(tabId),
    push: (m) => {
      deps.panels.push(m);
      if (m.type === 'copilot/run-changed') presenceChanged();
    },
    policy: async () => (await deps.policy.read()).policy,
  });
  // A co-pilot the organisation turns off (or whose model it stops allowing) stops mid-run, without a restart.
  deps.policy.onChange((parsed) => void copilot.policyChanged(parsed.policy).catch((e) => console.error('co-pilot policy change failed', e)));
  const presence = createChromePresence({ pipeline: () => live.ready, sessions, copilot, send });
  drawn.presence = presence;

  const panelChannel = createPanelChannel({
    tools: deps.tools,
    observation: deps.observation,
    runTool,
    ready: () => live.ready,
    sessions,
    observeTab: chromePorts.observeTab,
    sites: deps.sites,
    push: (m) => deps.panels.push(m),
    copilot,
    pairings: bridge.pairings,
    contracts: native.contracts,
    auditExport: auditExport.control,
  });

  return {
    panelChannel,
    onAlarm,
    onTabRemoved,
    start,
    taintAgent,
    presence,
    bridgeLink: bridge.link,
    pageToolsChanged: bridge.pageToolsChanged,
    pairings: bridge.pairings,
    recovery: () => live.recovery,
  };
}
