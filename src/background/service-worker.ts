// Steward's service worker: the one place where policy, tokens and records live. It can be
// stopped at any moment (MV3), so everything it must remember is persisted before it matters.
import { createRouter } from './router.ts';
import { ToolStore } from './tool-store.ts';
import { PanelPorts } from './panel-ports.ts';

const store = new ToolStore();
const panels = new PanelPorts();
const router = createRouter(store, panels);

chrome.runtime.onMessage.addListener(router.onMessage);
chrome.runtime.onConnect.addListener(router.onConnect);

// The toolbar button opens the side panel.
chrome.runtime.onInstalled.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
});
void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);

chrome.tabs.onRemoved.addListener((tabId) => {
  void store.ready.then(async () => {
    store.registry.forgetTab(tabId);
    await store.save();
    panels.broadcast({ type: 'panel/tools-changed', tabId });
  });
});
