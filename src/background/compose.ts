import { acceptPanelPorts, createChannels, listenToChannels } from './core/channels.ts';
import { ContinuationBook } from '../webmcp/continuations.ts';
import { pageDeadlines } from './core/page-deadlines.ts';
import { createContentReports } from './pages/content-reports.ts';
import { ToolStore } from './tools/store.ts';
import { OpenPanels } from './core/open-panels.ts';
import { createObservationService } from './observation/service.ts';
import { SiteAccess } from './sites/site-access.ts';
import { CONTENT_SCRIPT_FILES } from './sites/content-script-files.ts';
import { chromeHostGrants } from './sites/host-grants.ts';
import { tabMessenger } from './core/messenger.ts';
import type { SitesControl } from './panel/sites.ts';
import { restrictStorageToExtension } from './core/storage-access.ts';
import { markWelcomeDue } from './panel/first-run.ts';
import { installTestHooks } from './test-hooks.ts';
import { forgetAsUninstalled } from './fresh-install.ts';
import { browser, chromeOnly } from './core/browser.ts';
import { ManagedPolicy } from './core/managed-policy.ts';
import { chromePolicySource } from './core/chrome-policy-source.ts';
import { AdapterRegistry, shopAdapter } from '../observation/adapters/index.ts';
import type { Pipeline } from '../pipeline/pipeline.ts';
import { createPanelChannel } from './panel/panel-channel.ts';
import type { SendToFrame } from './core/messenger.ts';
import type { ObservationService } from './observation/service.ts';
import { PURGE_ALARM, RECHECK_ALARM, ensureAlarms } from './core/alarms.ts';
import { ApprovalAnnouncer, chromeAnnounceApis } from './pipeline/approval-announcer.ts';
import { PipelineService } from './pipeline/service.ts';
import { chromeAuditAnchor } from './pipeline/audit-anchor.ts';
import { chromeAuditRetention } from './pipeline/audit-retention.ts';
import { SessionTabs } from './core/sessions.ts';
import { StorageTaintLedger } from './pipeline/agent-taint.ts';
import { StorageWrittenControls } from './pipeline/written-controls.ts';
import { createChromePorts } from './ports/index.ts';
import { chromeTabControl } from './ports/navigate.ts';
import { sessionContinuationStore } from './ports/continuation-store.ts';
import { chromeTabEvents } from './ports/tab-wait.ts';
import { chromeScreenshots, chromeTabImage } from './ports/screenshot.ts';
import { CaptureBudget } from './ports/capture-budget.ts';
import { runToolFromPanel, type PanelRunRequest } from './tools/run-from-panel.ts';
import { createChromeCopilot } from './copilot/chrome-copilot.ts';
import { agentsSeeDebuggingTools, observeForAgents, onDebuggingToolsSettingChanged } from './tools/agent-view.ts';
import { wireBridge } from './mcp/wire-bridge.ts';
import { wireAuditExport } from './audit-export/wire-export.ts';
import { createContractService } from './contract/contract-service.ts';
import { chromeTabPage } from './contract/tab-page.ts';
import { auditPolicyChanges } from './policy/policy-audit.ts';
import { createChromePresence } from './presence/chrome-presence.ts';
import type { AgentPresence } from './presence/agent-presence.ts';
import { phrase, type Phrase } from '../protocol/phrase.ts';

/**
 * The service worker's composition root: every service built from its ports, in dependency order,
 * in this one file, and the worker's listeners registered. Feature folders (the folders of
 * src/background) never import it; each is handed what it needs from here. Called once, synchronously, from
 * service-worker.ts: MV3 wakes the worker only for listeners registered at its top level.
 */
export function composeServiceWorker(): void {
  // First, before anything reads a setting: content scripts may not touch chrome.storage.
  const storageRestricted = restrictStorageToExtension();

  // The organisation's policy (chrome.storage.managed): every door below asks it, and it is re-read whenever Chrome reloads it.
  const policy = new ManagedPolicy(chromePolicySource());
  const store = new ToolStore();
  const panels = new OpenPanels();

  /** Forgets what these tabs' pages reported (a closed tab, or a site removed from the list), so no panel or agent keeps seeing their tools. */
  const forgetTabs = (tabIds: number[]) =>
    void store.ready.then(async () => {
      for (const tabId of tabIds) store.registry.forgetTab(tabId);
      await store.save();
      for (const tabId of tabIds) toolsChanged(tabId);
    });

  /** The open tabs whose page (top frame) reported from one of these sites. */
  const tabsOf = (origins: string[]) => [...new Set(store.registry.all().flatMap((f) => (f.frameId === 0 && origins.includes(f.origin) ? [f.tabId] : [])))];

  // Content scripts exist only on the sites the person allows and Chrome grants; every message to a tab is gated too.
  const siteAccess = new SiteAccess({
    files: CONTENT_SCRIPT_FILES,
    grants: chromeHostGrants(),
    onSitesLost: (origins) => void store.ready.then(() => forgetTabs(tabsOf(origins))),
    onChanged: () => panels.push({ type: 'panel/sites-changed' }),
    storageRestricted,
    policy,
  });
  const send = tabMessenger(siteAccess);
  const observation = createObservationService(send);
  const sites: SitesControl = {
    list: () => siteAccess.ready.then(() => siteAccess.list()),
    overview: () => siteAccess.ready.then(() => siteAccess.overview()),
    allow: (origin) => siteAccess.allow(origin),
    remove: (origin) => siteAccess.remove(origin),
    tabStatus: (tabId) => siteAccess.tabStatus(tabId, (id, origin) => store.registry.tab(id).some((f) => f.frameId === 0 && f.origin === origin)),
  };

  // The Intent-to-Transaction pipeline: recovery of unfinished actions starts at once.
  const pipeline = wirePipeline({ tools: store, panels, observation, send, sites, policy });
  /** A tab's page tools changed: open panels and every MCP bridge process hear it. */
  function toolsChanged(tabId: number): void {
    panels.push({ type: 'panel/tools-changed', tabId });
    pipeline.pageToolsChanged(tabId);
  }
  const channels = createChannels({
    panel: pipeline.panelChannel,
    content: createContentReports({
      store,
      sites: siteAccess,
      push: (m) => (m.type === 'panel/tools-changed' ? toolsChanged(m.tabId) : panels.push(m)),
      presence: { of: (tabId) => pipeline.presence.of(tabId), stop: (tabId, agentId) => pipeline.presence.stop(tabId, agentId) },
      continuations: pipeline.continuations,
    }),
  });
  pipeline.start();
  if (__STEWARD_TEST_HOOKS__) installTestHooks({ observation, recovery: pipeline.recovery, pairings: pipeline.pairings, reset: forgetAsUninstalled });
  browser.alarms.onAlarm.addListener((alarm) => void pipeline.onAlarm(alarm).catch((e) => console.error('alarm failed', alarm.name, e)));
  // A click on an approval notification brings the person to the side panel, where deciding happens.
  browser.notifications.onClicked.addListener((id) => {
    void browser.notifications.clear(id);
    void browser.windows
      .getLastFocused()
      .then((w) => (w.id !== undefined ? chromeOnly.sidePanel.open({ windowId: w.id }) : undefined))
      .catch(() => undefined);
  });

  listenToChannels(channels);
  acceptPanelPorts(channels, panels);

  // The MCP bridge's native link: at every start, and again when a side panel opens (Settings shows it).
  pipeline.bridgeLink.ensure();
  browser.runtime.onConnect.addListener(() => pipeline.bridgeLink.ensure());

  // The toolbar button opens the side panel, as Steward's own click handler rather than Chrome's
  // panel behaviour: Chrome grants activeTab for a toolbar click that runs the extension's action,
  // not for one that toggles its side panel (ExtensionActionRunner). With it the panel can name an
  // unlisted site the person is looking at ("Allow <site>") and take the screenshot check there.
  void chromeOnly.sidePanel.setPanelBehavior({ openPanelOnActionClick: false }).catch(() => undefined);
  browser.action.onClicked.addListener((tab) => {
    if (tab.windowId !== undefined) void chromeOnly.sidePanel.open({ windowId: tab.windowId }).catch((e) => console.warn('Steward could not open its side panel', e));
  });

  // A fresh install's first panel opens on the welcome.
  browser.runtime.onInstalled.addListener((details) => {
    void markWelcomeDue(details.reason).catch((e) => console.error('Steward could not note its first run', e));
  });

  browser.tabs.onRemoved.addListener((tabId) => {
    pipeline.onTabRemoved(tabId);
    forgetTabs([tabId]);
  });

  // The person shows agents the pages' debugging tools, or hides them again: every MCP client asks its tab's tools afresh.
  onDebuggingToolsSettingChanged(
    () =>
      void store.ready.then(() => {
        for (const tabId of new Set(store.registry.all().map((f) => f.tabId))) pipeline.pageToolsChanged(tabId);
      }),
  );

  // A tab that leaves the page whose tools it reported (for a site where no content script runs, it
  // reports nothing new): bridge processes ask again, and the tools it listed go.
  browser.tabs.onUpdated.addListener((tabId, change) => {
    if (change.url === undefined) return;
    void store.ready.then(() => {
      const top = store.registry.tab(tabId).find((f) => f.frameId === 0);
      if (top && top.url.split('#')[0] !== change.url?.split('#')[0]) pipeline.pageToolsChanged(tabId);
    });
  });
}

/**
 * Assembles the Intent-to-Transaction pipeline on Chrome: IndexedDB stores, ports onto tabs,
 * approval announcements, alarms, and the features built on it (the contract path, the MCP bridge,
 * audit export, the co-pilot, presence, the panel channel). Returns the panel channel's handler
 * table and the handlers composeServiceWorker registers at top level (MV3 wakes the worker only
 * for listeners registered synchronously).
 */
function wirePipeline(deps: {
  tools: ToolStore;
  panels: OpenPanels;
  observation: ObservationService;
  /** Messages to tabs, gated by site (src/background/core/messenger.ts). */
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
  // The contract path: sites that publish an agent contract and granted Steward a token.
  const contract = createContractService({
    allowed: async (origin) => (await deps.sites.list()).includes(origin),
    tabPage: chromeTabPage((tabId) => chromePorts.observer.last(tabId)),
    recheck: async (actionId) => (await live.ready).recheck(actionId),
    push: (m) => deps.panels.push(m),
  });
  // Chrome's capture quota is the extension's: observations and agents' screenshots share it.
  const captures = new CaptureBudget();
  // The agents' WebMCP calls a page continues in its next document: the executor runs them, the pages' asks reach them.
  // Kept in chrome.storage.session: a call the page continues survives the worker stopping between two documents.
  const continuations = new ContinuationBook({ clock: Date.now, lifetimeMs: () => pageDeadlines.continuation_token_ms, store: sessionContinuationStore() });
  const chromePorts = createChromePorts({
    sessions,
    tools: deps.tools,
    observation: deps.observation,
    adapters,
    send,
    tabs,
    screenshot: chromeScreenshots(Date.now, captures),
    showDebuggingTools: agentsSeeDebuggingTools,
    contract,
    continuations,
  });

  let pipeline: Pipeline | undefined;
  const retention = chromeAuditRetention();
  const announceApis = chromeAnnounceApis();
  const announcer = new ApprovalAnnouncer(deps.panels, async () => (pipeline ? pipeline.admin.pendingCount() : 0), announceApis);
  // Every audit entry, also to the organisation's syslog collector when a target is set (src/background/audit-export/).
  const auditExport = wireAuditExport({
    exporter: async () => (await live.ready).auditExport,
    post: (batch) => bridge.link.post(batch) || { text: `steward-bridge is not connected: ${bridge.link.status().problem ?? 'no link'}`, said: phrase('collector_bridge_down') },
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
      await applyRetention(pipeline);
    } else {
      bridge.link.ensure();
      if ((await pipeline.recheckOpen()).length > 0) deps.panels.push({ type: 'panel/audit-changed' });
    }
  }

  /** The person's audit retention, applied with the hourly purge (and at once when they set it, in the panel). */
  async function applyRetention(pipeline: Pipeline): Promise<void> {
    const days = await retention.days();
    if (days === null) return;
    try {
      if ((await pipeline.admin.applyAuditRetention(days)).removed > 0) deps.panels.push({ type: 'panel/audit-changed' });
    } catch (error) {
      // A log that does not verify keeps its entries (they are evidence); "Verify chain" says why.
      console.warn('audit retention not applied', error);
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
    // A chain a stopped worker left that recovery did not take up has nobody to run it: its token is refused.
    live.recovered
      .catch(() => undefined)
      .then(() => continuations.releaseUnadopted())
      .catch((e) => console.error('releasing continuation chains failed', e));
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
  function taintAgent(agentId: string, source: string, said: Phrase): Promise<void> {
    return taint.mark(agentId, { at: Date.now(), source, said });
  }

  const observeAsAgent = observeForAgents(chromePorts.observeTab, agentsSeeDebuggingTools);

  // The MCP bridge: external agents' calls and pairing (src/background/mcp/).
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
  // Every change of the policy in force is on record, with what did not read.
  auditPolicyChanges(deps.policy, async (record) => (await live.ready).admin.recordPolicy(record));
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
    contracts: contract.contracts,
    auditExport: auditExport.control,
    retention,
  });

  return {
    panelChannel,
    onAlarm,
    onTabRemoved,
    start,
    taintAgent,
    presence,
    continuations,
    bridgeLink: bridge.link,
    pageToolsChanged: bridge.pageToolsChanged,
    pairings: bridge.pairings,
    recovery: () => live.recovery,
  };
}
