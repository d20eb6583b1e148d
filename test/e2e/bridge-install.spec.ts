import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, test, type BrowserContext, type Page } from '@playwright/test';
import { expect } from '../harness/expect.ts';
import { STEWARD_EXTENSION_ID } from '../../src/protocol/bridge.ts';
import { connectStdio, errorCodeOf, openSidePanel, pairingCodeOf } from '../harness/bridge-harness.ts';
import { CHROMIUM_FLAGS, DIST } from '../harness/browser.ts';
import { showView } from '../harness/panel-helpers.ts';

/**
 * The bridge installed as a person installs it: a home of their own (here a temporary HOME), the
 * built CLI run with nothing but that HOME (`install --browser chromium`: no --home, no
 * --user-data-dir), and Chromium running on its default profile under that HOME. Steward, already
 * open, connects once the host is installed; `doctor` then passes; after `uninstall` it reports the
 * missing manifest.
 *
 * Why the profile is `$HOME/.config/chromium`: Chromium reads user-level host manifests from
 * `<user data dir>/NativeMessagingHosts` (chrome_paths.cc, DIR_USER_NATIVE_MESSAGING), and
 * `$HOME/.config/chromium` is its default user data dir on Linux, so that is the one place a
 * person's Chromium looks. Playwright always names the profile dir, so it names the default one;
 * the CLI is told only HOME and has to find that place itself. (Pointing the browser at any other
 * profile dir would make it look in that dir instead, so no user-level install could be found.)
 */

const CLI = join(import.meta.dirname, '..', '..', 'bridge', 'dist', 'cli.js');
const MANIFEST = 'com.steward.bridge.json';

let home: string;
let env: Record<string, string>;
let context: BrowserContext | undefined;

/** The person's environment: their HOME, and none of the variables that would move the browsers' or the bridge's dirs. */
function personEnv(): Record<string, string> {
  const base = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  return { ...base, HOME: home, XDG_CONFIG_HOME: '', STEWARD_BRIDGE_HOME: '', STEWARD_EXTENSION_ID: '' };
}

/** The built CLI, as `npx steward-bridge …` runs it; its exit code, stdout and stderr. */
function bridge(args: string[]): { code: number; stdout: string; stderr: string } {
  try {
    return { code: 0, stdout: execFileSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] }), stderr: '' };
  } catch (error) {
    const failed = error as { status: number | null; stdout: string; stderr: string };
    return { code: failed.status ?? -1, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function bridgeLine(panel: Page) {
  await panel.bringToFront();
  await showView(panel, 'Settings');
  return panel.getByRole('status').filter({ hasText: 'MCP bridge' });
}

test.beforeEach(() => {
  // Short: the bridge's socket ($HOME/.config/steward-bridge/bridge.sock) must fit in 107 bytes.
  home = mkdtempSync('/tmp/sbh-');
  env = personEnv();
});

test.afterEach(async () => {
  await context?.close();
  rmSync(home, { recursive: true, force: true });
});

test('installed with only HOME, the host is where Chromium looks: Steward connects, doctor passes, and after uninstall doctor names the missing manifest', async () => {
  test.setTimeout(120_000);
  const profile = join(home, '.config', 'chromium');
  const manifest = join(profile, 'NativeMessagingHosts', MANIFEST);
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    env,
    args: [...CHROMIUM_FLAGS, `--disable-extensions-except=${DIST}`, `--load-extension=${DIST}`],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  expect(new URL(worker.url()).host, 'Steward loaded unpacked has the id the bridge allows by default').toBe(STEWARD_EXTENSION_ID);

  // Before install: Steward says the bridge is not installed, and doctor finds no manifest.
  const panel = await openSidePanel({ context, extensionId: STEWARD_EXTENSION_ID });
  await expect(await bridgeLine(panel)).toHaveText('MCP bridge: not connected');
  await expect(panel.getByText('steward-bridge is not installed')).toBeVisible();
  const before = bridge(['doctor']);
  expect(before.code).toBe(1);
  expect(before.stdout).toContain(`Chromium (${manifest})\n  problem  no host manifest at ${manifest}, where Chromium reads it\n           fix: steward-bridge install --browser chromium\n`);

  const installed = bridge(['install', '--browser', 'chromium']);
  expect(installed.code, installed.stderr).toBe(0);
  expect(installed.stdout).toContain(`wrote ${manifest} (Chromium)`);
  expect(installed.stdout).toContain(`wrote ${join(home, '.config', 'steward-bridge', 'host', 'steward-bridge-host')}`);

  // Steward tries again when a side panel opens: the browser starts the host through the new manifest.
  const again = await openSidePanel({ context, extensionId: STEWARD_EXTENSION_ID });
  await expect(await bridgeLine(again)).toHaveText('MCP bridge: connected', { timeout: 20_000 });

  // An MCP client the person configured (stdio, HOME only) reaches Steward: its first call asks to pair, and the pairing card shows in the panel.
  const client = await connectStdio({ env }, 'v2', 'Installed Client', { credential: join(home, 'installed-client.credential') });
  try {
    const first = await client.call('steward_tabs');
    expect(errorCodeOf(first), first.text).toBe('PAIRING_REQUIRED');
    expect(pairingCodeOf(first)).toMatch(/^\d{3}-\d{3}$/);
    await again.bringToFront();
    await showView(again, 'Approvals');
    await expect(again.getByRole('region', { name: 'Pairing request from Installed Client' })).toBeVisible();
  } finally {
    await client.close();
  }

  const healthy = bridge(['doctor']);
  expect(healthy.stdout).toContain('the host starts (the one the browser started is already serving Steward)');
  expect(healthy.stdout).toContain(`  ok       Steward is connected: its host is listening on ${join(home, '.config', 'steward-bridge', 'bridge.sock')}\n`);
  expect(healthy.stdout).toContain('All checks passed.');
  expect(healthy.code, healthy.stdout).toBe(0);
  const report = JSON.parse(bridge(['doctor', '--json']).stdout) as { ok: boolean; browsers: Array<{ browser: string; where: string }> };
  expect(report).toMatchObject({ ok: true, browsers: [{ browser: 'chromium', where: manifest }] });

  const removed = bridge(['uninstall']);
  expect(removed.code).toBe(0);
  expect(removed.stdout).toContain(`removed ${manifest}`);
  const after = bridge(['doctor']);
  expect(after.code).toBe(1);
  expect(after.stdout).toContain(`  problem  no host manifest at ${manifest}, where Chromium reads it\n`);
});
