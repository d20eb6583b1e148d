import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_HOOK_NAMES } from '../../src/background/test-hooks.ts';
import { testHooksIn } from '../../scripts/bundle-test-hooks.ts';

/** A broken dist/ fails silently in Chromium (the extension just does not load): check it first. */
export default function globalSetup(): void {
  const dist = join(import.meta.dirname, '..', '..', 'dist');
  const manifestPath = join(dist, 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error('dist/manifest.json is missing: run `npm run build:test` first.');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    background?: { service_worker?: string };
    side_panel?: { default_path?: string };
    content_scripts?: Array<{ js?: string[] }>;
  };
  const files = [manifest.background?.service_worker, manifest.side_panel?.default_path, ...(manifest.content_scripts ?? []).flatMap((c) => c.js ?? [])];
  // Content scripts are registered at run time (chrome.scripting), so their files are checked by name.
  files.push('src/content/main-world.iife.js', 'src/content/main-network.iife.js', 'src/content/isolated.iife.js');
  for (const file of files) {
    if (!file || !existsSync(join(dist, file))) throw new Error(`dist/ is broken: ${file ?? 'an entry'} named by the manifest does not exist.`);
  }
  // The specs drive the service worker through its test hooks, which only `npm run build:test` installs.
  const found = testHooksIn(dist);
  const missing = TEST_HOOK_NAMES.filter((name) => !found.includes(name));
  if (missing.length > 0) throw new Error(`dist/ lacks the test hooks ${missing.join(', ')} (a production build?): run \`npm run build:test\` first.`);
  if (!existsSync('/usr/bin/chromium')) throw new Error('/usr/bin/chromium is missing: apt-get install chromium.');
}
