// `npm start`: the demo sites plus Chromium with Steward loaded. Headed when a display exists,
// headless otherwise; Ctrl-C stops everything cleanly.
import { chromium, type Worker } from '@playwright/test';
import { join } from 'node:path';
import { existsSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startDemoSites } from '../sites/server.ts';
import { DEMO_GOAL, startTabs } from '../sites/start-tabs.ts';
import { DEMO_MODEL, startDemoModel } from '../sites/model/demo-model.ts';
import { SETTINGS_KEY, readSettings } from '../src/protocol/settings.ts';
import { CHROMIUM_FLAGS, DIST, NATIVE_WEBMCP_FLAG, allowSites, grantHosts } from '../test/harness/browser.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(join(DIST, 'manifest.json'))) throw new Error('dist/ is missing: run `npm run build`.');
if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: apt-get install chromium (or set CHROMIUM_PATH).`);

const headed = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY) && process.env.STEWARD_HEADLESS !== '1';
const nativeWebMcp = process.env.STEWARD_NATIVE_WEBMCP !== '0';

const sites = await startDemoSites();
const demoPort = Number(process.env.STEWARD_DEMO_MODEL_PORT ?? 8790);
// The usual port may be taken (another checkout's `npm start`): any free one will do.
const demoModel = await startDemoModel({ port: demoPort }).catch(() => startDemoModel({ port: 0 }));

/**
 * Points the co-pilot at the demo model unless the person chose another endpoint (read-modify-write);
 * an earlier run's demo model may have had another port.
 */
async function offerDemoModel(worker: Worker, url: string): Promise<boolean> {
  const stored = await worker.evaluate(async (key) => (await chrome.storage.local.get(key))[key], SETTINGS_KEY);
  const settings = readSettings(stored);
  const demo = settings.copilot.provider === 'openai' && settings.copilot.model === DEMO_MODEL;
  if (settings.copilot.endpoint && !demo) return false;
  if (settings.copilot.endpoint === url && demo) return true;
  const next = { ...settings, copilot: { ...settings.copilot, provider: 'openai' as const, endpoint: url, model: DEMO_MODEL } };
  await worker.evaluate(async ([key, value]) => chrome.storage.local.set({ [key]: value }), [SETTINGS_KEY, next] as const);
  return true;
}
const profile = join(process.cwd(), '.steward-profile');
// The profile keeps Steward's records between runs, but Chrome would also keep the previous
// build's service worker script (same extension version, new file names): drop that cache so
// the freshly built worker is the one that starts.
rmSync(join(profile, 'Default', 'Service Worker'), { recursive: true, force: true });
// The MCP bridge's native host, into this profile (only Steward's id may start it): MCP clients
// configured with `steward-bridge serve` reach this browser through it.
const bridgeCli = join(process.cwd(), 'bridge', 'bin', 'steward-bridge.js');
let bridgeReady = false;
try {
  execFileSync(process.execPath, [bridgeCli, 'install', '--user-data-dir', profile], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 20_000 });
  bridgeReady = true;
} catch (error) {
  console.warn(`The MCP bridge was not installed into the profile: ${(error as Error).message.split('\n')[0]}`);
}
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath,
  headless: !headed,
  viewport: null,
  args: [...CHROMIUM_FLAGS.filter((f) => (headed ? f !== '--disable-gpu' : true)), ...(nativeWebMcp ? [NATIVE_WEBMCP_FLAG] : []), `--disable-extensions-except=${DIST}`, `--load-extension=${DIST}`],
});
const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
const extensionId = new URL(worker.url()).host;
// The bundled demo sites are allowed from the start; any other site waits for "Allow" in the panel.
await allowSites({ context, serviceWorker: worker, extensionId }, Object.values(sites.urls));
const usesDemoModel = await offerDemoModel(worker, demoModel.url);
// Steward fetches only from origins Chrome gave it: the demo model's too.
if (usesDemoModel) await grantHosts({ context, extensionId }, [demoModel.url]);

const [first] = context.pages();
const pages = startTabs(sites.urls);
await (first ?? (await context.newPage())).goto(pages[0]!);
for (const url of pages.slice(1)) await (await context.newPage()).goto(url);
// The panel opened as a page of its own follows the tab named by `?tabId=` (without it, the active
// tab of its window: itself). Pinned to the demo's first tab, it works headless too.
const demoTab = await worker.evaluate(async (url) => (await chrome.tabs.query({})).find((t) => t.url === url)?.id, pages[0]!);
const panelUrl = `chrome-extension://${extensionId}/src/sidepanel/index.html${demoTab === undefined ? '' : `?tabId=${demoTab}`}`;

console.log(`Steward is running (${headed ? 'headed' : 'headless'} Chromium, ${nativeWebMcp ? 'native WebMCP' : 'WebMCP polyfill'}).`);
for (const [name, url] of Object.entries(sites.urls)) console.log(`  ${name.padEnd(8)} ${url}`);
console.log(`  model    ${demoModel.url}  (demo model: scripted replies, not a language model)`);
if (!usesDemoModel) console.log('           (the co-pilot keeps the endpoint already set in its Settings)');
console.log(`  panel    ${panelUrl}  (the side panel as a page, about the shop's order tab)`);
if (bridgeReady) console.log(`  MCP      stdio: node ${bridgeCli} serve   ·   HTTP: node ${bridgeCli} serve --http (URL and token: … http-token)`);
console.log('Steward observes only the demo sites above; allow others from its side panel (This tab, or Settings).');
console.log(`Demo: on the shop's tab (${pages[0]}) open Steward's side panel (toolbar icon, or the panel URL above), type "${DEMO_GOAL}" in Co-pilot, press Enter, then Approve.`);
console.log('Press Ctrl-C to stop.');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await context.close().catch(() => undefined);
  await sites.stop();
  await demoModel.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
context.on('close', () => void stop());
