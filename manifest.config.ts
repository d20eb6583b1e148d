import { defineManifest } from '@crxjs/vite-plugin';
import pkg from './package.json' with { type: 'json' };

export default defineManifest({
  manifest_version: 3,
  name: 'Steward',
  // A fixed public key gives Steward the same id everywhere (iodcoaibgikagkbaifmcklmipgpmmcip),
  // so the MCP bridge's native-messaging manifest can name it: only Steward may start the bridge.
  key: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAmXoOVkzPGaR395zPdeWHonfcwI8g5SO51Z9KwfC8wFZ4LGFUOX9kDh/OCk4Ntzlp4OeTfdgguXRCF4Lra6w5aHPDDbhVjq5aJkB7TIXmOB6rdOSfc14rkF9ymuEn7zhdHMxP04gQsQ6dRyCUjSwk67U2xDYL0Njt44uR9TgU4f4FpIwe7wf2dnN0Q27qGs5iKM5F6yCmrjZ6vxl2k+MckdYxu0pkRLxPFWwt59M4RMpj4A+lM1BfdHZjiasGJgu4f8nGIj/d+anw5Gf8+QINCPUW5riuP40f3mm2u33k1Xv0weDoP65MYYNrHLDH9R/Jece5GFc1Abc3SSdQ9sa9wQIDAQAB',
  description: 'An agent-first runtime for your browser: agents see what a page is, and every action they take is checked, approved and recorded.',
  version: pkg.version,
  icons: { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png', 48: 'icons/icon-48.png', 128: 'icons/icon-128.png' },
  action: { default_title: 'Open Steward', default_icon: { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png' } },
  side_panel: { default_path: 'src/sidepanel/index.html' },
  background: { service_worker: 'src/background/service-worker.ts', type: 'module' },
  // alarms: purges and rechecks of unconfirmed actions; notifications: an approval waiting while
  // no panel is open; scripting: page scripts registered only for the sites the person allows;
  // nativeMessaging: the link to the MCP bridge (steward-bridge), which only Steward may start;
  // declarativeNetRequestWithHostAccess: while an agent's step runs in a tab, session rules for that
  // tab stop any navigation hop to a site outside the agent's (src/background/navigation/fence.ts).
  permissions: ['sidePanel', 'storage', 'alarms', 'notifications', 'scripting', 'nativeMessaging', 'declarativeNetRequestWithHostAccess'],
  // Host access lets Steward register its page scripts for a site the moment the person allows
  // it (no static content scripts: an unlisted site is never read) and capture screenshot
  // evidence of an allowed page. Chrome's own site access (chrome://extensions) can narrow it.
  host_permissions: ['<all_urls>'],
  // No web page and no other extension may message Steward.
  externally_connectable: { ids: [], matches: [] },
});
