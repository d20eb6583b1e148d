// Steward's service worker: the one place where policy, tokens and records live. It can be
// stopped at any moment (MV3), so everything it must remember is persisted before it matters.
// First: the words of its notifications come from chrome.i18n.
import './i18n.ts';
import { acceptPanelPorts, createChannels, listenToChannels } from './channels.ts';
import { createContentReports } from './pages/content-reports.ts';
import { ToolStore } from './tools/store.ts';
import { OpenPanels } from './panel/open-panels.ts';
import { createObservationService } from './observation/service.ts';
import { wirePipeline } from './pipeline/wiring.ts';
import { SiteAccess } from './sites/site-access.ts';
import { CONTENT_SCRIPT_FILES } from './sites/content-script-files.ts';
import { chromeHostGrants } from './sites/host-grants.ts';
import { tabMessenger } from './pages/messenger.ts';
import type { SitesControl } from './panel/sites.ts';
import { restrictStorageToExtension } from './storage-access.ts';
import { markWelcomeDue } from './first-run.ts';
import { installTestHooks } from './test-hooks.ts';
import { browser, chromeOnly } from './browser.ts';
import { ManagedPolicy } from './policy/managed-policy.ts';
import { chromePolicySource } from './policy/chrome-policy-source.ts';

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
  }),
});
pipeline.start();
if (__STEWARD_TEST_HOOKS__) installTestHooks({ observation, recovery: pipeline.recovery, pairings: pipeline.pairings });
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

// A tab that leaves the page whose tools it reported (for a site where no content script runs, it
// reports nothing new): bridge processes ask again, and the tools it listed go.
browser.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url === undefined) return;
  void store.ready.then(() => {
    const top = store.registry.tab(tabId).find((f) => f.frameId === 0);
    if (top && top.url.split('#')[0] !== change.url?.split('#')[0]) pipeline.pageToolsChanged(tabId);
  });
});
