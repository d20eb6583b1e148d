import { defineManifest } from '@crxjs/vite-plugin';
import pkg from './package.json' with { type: 'json' };

const pages = ['http://*/*', 'https://*/*'];

export default defineManifest({
  manifest_version: 3,
  name: 'Steward',
  description: 'An agent-first runtime for your browser: agents see what a page is, and every action they take is checked, approved and recorded.',
  version: pkg.version,
  icons: { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png', 48: 'icons/icon-48.png', 128: 'icons/icon-128.png' },
  action: { default_title: 'Open Steward', default_icon: { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png' } },
  side_panel: { default_path: 'src/sidepanel/index.html' },
  background: { service_worker: 'src/background/service-worker.ts', type: 'module' },
  // alarms: purges and rechecks of unconfirmed actions; notifications: an approval waiting while no panel is open.
  permissions: ['sidePanel', 'storage', 'alarms', 'notifications'],
  content_scripts: [
    {
      // Main world: the WebMCP polyfill where the browser has none. Treated as hostile.
      matches: pages,
      js: ['src/content/main-world.iife.ts'],
      run_at: 'document_start',
      all_frames: true,
      world: 'MAIN',
    },
    {
      matches: pages,
      js: ['src/content/isolated.iife.ts'],
      run_at: 'document_start',
      all_frames: true,
    },
  ],
  // No web page and no other extension may message Steward.
  externally_connectable: { ids: [], matches: [] },
});
