// Steward's service worker: the one place where policy, tokens and records live. It can be
// stopped at any moment (MV3), so everything it must remember is persisted before it matters.
import { createRouter } from './router.ts';
import { ToolStore } from './tool-store.ts';
import { ControlPanels } from './control-panels.ts';
import { observation } from './observation-service.ts';
import { wirePipeline } from './pipeline-wiring.ts';

const store = new ToolStore();
const panels = new ControlPanels();
// The Intent-to-Transaction pipeline: recovery of unfinished actions starts at once.
const pipeline = wirePipeline({ tools: store, panels, observation });
const router = createRouter(store, panels, pipeline.control);
pipeline.start();
chrome.alarms.onAlarm.addListener((alarm) => void pipeline.onAlarm(alarm).catch((e) => console.error('alarm failed', alarm.name, e)));
// A click on an approval notification brings the person to the side panel, where deciding happens.
chrome.notifications.onClicked.addListener((id) => {
  void chrome.notifications.clear(id);
  void chrome.windows.getLastFocused().then((w) => (w.id !== undefined ? chrome.sidePanel.open({ windowId: w.id }) : undefined)).catch(() => undefined);
});

chrome.runtime.onMessage.addListener(router.onMessage);
chrome.runtime.onConnect.addListener(router.onConnect);

// The toolbar button opens the side panel.
chrome.runtime.onInstalled.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
});
void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);

chrome.tabs.onRemoved.addListener((tabId) => {
  pipeline.onTabRemoved(tabId);
  void store.ready.then(async () => {
    store.registry.forgetTab(tabId);
    await store.save();
    panels.broadcast({ type: 'panel/tools-changed', tabId });
  });
});
