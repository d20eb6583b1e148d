import { defineManifest } from '@crxjs/vite-plugin';
import pkg from './package.json' with { type: 'json' };
import { SITE_HOST_PATTERNS } from './src/protocol/site-access.ts';

export default defineManifest({
  manifest_version: 3,
  // Name, description and the toolbar tooltip in the browser's language: public/_locales (en, vi).
  name: '__MSG_ext_name__',
  default_locale: 'en',
  // A fixed public key gives Steward the same id wherever it is loaded unpacked (dist/ or the
  // unzipped steward-<version>.zip): iodcoaibgikagkbaifmcklmipgpmmcip, the id the MCP bridge's
  // native-messaging manifest names, so only Steward may start the bridge. The Chrome Web Store
  // refuses a `key` and gives Steward an id of its own: `npm run package -- --store` leaves the key
  // out, and `steward-bridge install --extension-id <store id>` names that id instead (README, Site access).
  key: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAmXoOVkzPGaR395zPdeWHonfcwI8g5SO51Z9KwfC8wFZ4LGFUOX9kDh/OCk4Ntzlp4OeTfdgguXRCF4Lra6w5aHPDDbhVjq5aJkB7TIXmOB6rdOSfc14rkF9ymuEn7zhdHMxP04gQsQ6dRyCUjSwk67U2xDYL0Njt44uR9TgU4f4FpIwe7wf2dnN0Q27qGs5iKM5F6yCmrjZ6vxl2k+MckdYxu0pkRLxPFWwt59M4RMpj4A+lM1BfdHZjiasGJgu4f8nGIj/d+anw5Gf8+QINCPUW5riuP40f3mm2u33k1Xv0weDoP65MYYNrHLDH9R/Jece5GFc1Abc3SSdQ9sa9wQIDAQAB',
  description: '__MSG_ext_description__',
  version: pkg.version,
  // storage.local.setAccessLevel (Chrome 140) sets the floor: without it Steward cannot keep page
  // scripts out of its storage, and then it observes no site at all (storage-access.ts). The
  // side panel (114, sidePanel.open 116), registered main-world scripts and session DNR rules are older.
  minimum_chrome_version: '140',
  homepage_url: 'https://github.com/steward-agent/steward#readme',
  icons: { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png', 48: 'icons/icon-48.png', 128: 'icons/icon-128.png' },
  action: { default_title: '__MSG_action_title__', default_icon: { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png' } },
  side_panel: { default_path: 'src/sidepanel/index.html' },
  // A keyboard way to the panel: the shortcut runs the toolbar button's action, whose handler opens
  // the panel (and earns activeTab, as the click does). People can change it at chrome://extensions/shortcuts.
  commands: { _execute_action: { suggested_key: { default: 'Alt+Shift+S' } } },
  background: { service_worker: 'src/background/service-worker.ts', type: 'module' },
  // alarms: purges and rechecks of unconfirmed actions; notifications: an approval waiting while
  // no panel is open; scripting: page scripts registered only for the sites the person allows;
  // nativeMessaging: the link to the MCP bridge (steward-bridge), which only Steward may start (kept
  // required, README "Site access"); activeTab: when the person clicks Steward's toolbar button,
  // Chrome lets Steward see that tab (its address, so the panel can offer "Allow <site>", and its
  // pixels: captureVisibleTab needs activeTab or <all_urls>, per-site access is not enough) until
  // it leaves the site (the click opens the panel from Steward's own handler, which is what earns it); declarativeNetRequest: while an
  // agent's step runs in a tab, session rules for that tab stop any navigation hop to a site outside
  // the agent's (src/background/navigation/fence.ts): block rules that hold for every address, also
  // the sites Steward has no access to (declarativeNetRequestWithHostAccess would need host access
  // to the very site it must stop).
  permissions: ['sidePanel', 'storage', 'alarms', 'notifications', 'scripting', 'nativeMessaging', 'activeTab', 'declarativeNetRequest'],
  // No host access at install. The person allows sites one at a time in the side panel, which asks
  // Chrome for that origin (chrome.permissions.request); Steward then registers its page scripts for
  // it alone (src/background/sites/site-access.ts). Removing a site gives the access back.
  optional_host_permissions: SITE_HOST_PATTERNS,
  // The organisation's policy (chrome.storage.managed), set through Chrome's enterprise policy:
  // the schema names the keys and their JSON types (Chrome drops a value of the wrong type);
  // src/protocol/managed-policy.ts checks the rest. docs/ADMIN.md shows how to set it.
  storage: { managed_schema: 'managed-schema.json' },
  // No web page and no other extension may message Steward.
  externally_connectable: { ids: [], matches: [] },
});
