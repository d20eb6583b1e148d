import { defineManifest } from '@crxjs/vite-plugin';
import pkg from './package.json' with { type: 'json' };

export default defineManifest({
  manifest_version: 3,
  name: 'Steward',
  description: 'An agent-first runtime for your browser: agents see what a page is, and every action they take is checked, approved and recorded.',
  version: pkg.version,
  icons: { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png', 48: 'icons/icon-48.png', 128: 'icons/icon-128.png' },
  action: { default_title: 'Open Steward', default_icon: { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png' } },
  side_panel: { default_path: 'src/sidepanel/index.html' },
  background: { service_worker: 'src/background/service-worker.ts', type: 'module' },
  // alarms: purges and rechecks of unconfirmed actions; notifications: an approval waiting while
  // no panel is open; scripting: page scripts registered only for the sites the person allows.
  permissions: ['sidePanel', 'storage', 'alarms', 'notifications', 'scripting'],
  // Host access lets Steward register its page scripts for a site the moment the person allows
  // it (no static content scripts: an unlisted site is never read) and capture screenshot
  // evidence of an allowed page. Chrome's own site access (chrome://extensions) can narrow it.
  host_permissions: ['<all_urls>'],
  // No web page and no other extension may message Steward.
  externally_connectable: { ids: [], matches: [] },
});
