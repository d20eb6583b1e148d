import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { installPacked, packBridge, packedManifest } from '../../scripts/bridge-pack.ts';
import { buildProduction, packageName, writePackage } from '../../scripts/package.ts';
import { readZip } from '../../scripts/zip.ts';
import { STEWARD_EXTENSION_ID } from '../../src/protocol/bridge.ts';
import { approveInPanel, connectLaunchLine, errorCodeOf, openSidePanel, pairClient, payloadOf, type McpClient, type ToolReply } from '../harness/bridge-harness.ts';
import { clickStewardButton, grantInChromeSettings, launchInProfile, tabIdOfAnyPage, type StewardBrowser } from '../harness/browser.ts';
import { test, expect } from '../harness/fixtures.ts';
import { showView } from '../harness/panel-helpers.ts';
import { ORDER, shopState } from '../harness/pipeline-helpers.ts';

/**
 * The README, followed by a person who has only the two artefacts: `npm run package`'s zip and
 * the bridge's npm tarball. Every step is the README's, on a machine laid out as a person's is:
 * a HOME of their own, Chromium on its default profile there (`$HOME/.config/chromium`, where it
 * reads user-level native-messaging hosts), the unzipped folder loaded unpacked, the bridge
 * installed from its tarball and run with nothing but that HOME, and the MCP client started from
 * the config entry `steward-bridge config claude-desktop --write` wrote. Only Chrome's own
 * permission prompt is answered ahead (chrome://extensions' site access), since a headless
 * browser shows no prompt to click.
 */
test('from the zip and the bridge tarball, the README gets an MCP client to its first approved action', async ({ sites }) => {
  test.setTimeout(300_000);
  for (const url of Object.values(sites.urls)) await fetch(new URL('/__demo/reset', url), { method: 'POST' });
  // Short: the bridge's socket ($HOME/.config/steward-bridge/bridge.sock) must fit in 107 bytes.
  const home = mkdtempSync('/tmp/sbj-');
  const env = { ...personEnv(), HOME: home };
  let steward: Omit<StewardBrowser, 'close'> | undefined;
  let client: McpClient | undefined;
  try {
    // The artefacts: the zip, and the tarball npm publishes.
    const work = join(home, 'artefacts');
    await buildProduction(join(work, 'dist'));
    const zip = join(work, packageName(false));
    writePackage(join(work, 'dist'), zip, false);
    const { tarball, integrity } = packBridge(work);

    // Install 1: unzip into a folder the person keeps.
    const folder = join(home, 'Steward');
    for (const [name, data] of readZip(readFileSync(zip))) {
      mkdirSync(dirname(join(folder, name)), { recursive: true });
      writeFileSync(join(folder, name), data);
    }
    // Install 2–4: Load unpacked (Chromium's --load-extension is that path) in the person's own profile.
    steward = await launchInProfile(join(home, '.config', 'chromium'), { nativeWebMcp: true, extensionDir: folder, env });
    expect(steward.extensionId, 'the unzipped folder keeps the id the bridge allows').toBe(STEWARD_EXTENSION_ID);

    // Install 5: on the shop's order page the person clicks Steward's icon; the panel opens on the welcome.
    const shop = new URL(sites.urls.shop).origin;
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.shop}/orders/${ORDER.id}`);
    const tabId = await tabIdOfAnyPage(steward.serviceWorker, page);
    await clickStewardButton(steward, page);
    const panel = await openSidePanel(steward, tabId);
    await expect(panel.getByRole('region', { name: 'Welcome to Steward' })).toBeVisible();

    // Allow the site: This tab → "Allow <site>"; Chrome asks, the person says yes.
    await showView(panel, 'This tab');
    const access = panel.getByRole('region', { name: 'Site access' });
    await grantInChromeSettings(steward, [sites.urls.shop]);
    await access.getByRole('button', { name: `Allow ${shop}` }).click();
    await expect(access.getByRole('status')).toContainText(`Steward now observes ${shop}`);

    // MCP bridge (with the browser started once): installed from npm (here its tarball) into a folder of the person's, run as `npx steward-bridge`.
    const app = join(home, 'tools');
    installPacked(app, tarball, { integrity, manifest: packedManifest(tarball) }, false);
    const npx = (args: string[]) => execFileSync('npx', ['--no-install', 'steward-bridge', ...args], { cwd: app, env, encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const installed = npx(['install', '--browser', 'chromium']);
    const hostManifest = join(home, '.config', 'chromium', 'NativeMessagingHosts', 'com.steward.bridge.json');
    expect(installed).toContain(`wrote ${hostManifest} (Chromium)`);
    expect(JSON.parse(readFileSync(hostManifest, 'utf8'))).toMatchObject({ allowed_origins: [`chrome-extension://${STEWARD_EXTENSION_ID}/`] });
    // Connect a client: one command writes Claude Desktop's config entry.
    npx(['config', 'claude-desktop', '--write']);
    const config = JSON.parse(readFileSync(join(home, '.config', 'Claude', 'claude_desktop_config.json'), 'utf8')) as {
      mcpServers: { steward: { command: string; args: string[]; env?: Record<string, string> } };
    };

    // Steward tries again when a side panel opens: Chrome starts the host through the new manifest.
    await panel.reload();
    await showView(panel, 'Settings');
    await expect(panel.getByRole('status').filter({ hasText: 'MCP bridge' })).toHaveText('MCP bridge: connected', { timeout: 20_000 });

    // The client starts the server its config names; Steward connects to the host Chrome started.
    client = await connectLaunchLine({ command: config.mcpServers.steward.command, args: config.mcpServers.steward.args, env: { ...env, ...config.mcpServers.steward.env } }, 'v2', 'Claude Desktop');
    // Pairing: the first call asks, the person types the code, ticks the shop and pairs.
    const tabs = await pairClient(client, panel, { sites: [shop], scopes: '*:*' });
    expect(tabs.text).toContain(`/orders/${ORDER.id}`);

    let summary: { state: string | null; state_version: number | null } | undefined;
    await expect
      .poll(async () => {
        summary = (payloadOf(await client!.call('steward_observe', { tab_id: tabId })) as { summary?: typeof summary }).summary;
        return summary?.state;
      })
      .toBe('awaiting_payment');
    const cancel = {
      tab_id: tabId,
      action: 'orders.cancel',
      resource: ORDER,
      preconditions: { expected_state: 'awaiting_payment', state_version: summary!.state_version },
      input: { reason: 'ordered_by_mistake' },
      idempotency_key: 'readme-journey-cancel',
      rationale: 'The person ordered this by mistake.',
    };
    const asked = await client.call('steward_execute', cancel);
    expect(errorCodeOf(asked), asked.text).toBe('APPROVAL_REQUIRED');
    expect((await shopState(sites.urls.shop)).counters[ORDER.id]?.cancelled ?? 0).toBe(0);

    // The person approves the card; the client asks again with the same key and is told it is done.
    await approveInPanel(panel, 'orders.cancel');
    const outcome = (reply: ToolReply) => errorCodeOf(reply) ?? (payloadOf(reply) as { execution?: { status: string } }).execution?.status;
    await expect.poll(async () => outcome(await client!.call('steward_execute', cancel)), { timeout: 30_000 }).toBe('confirmed');
    const shopNow = await shopState(sites.urls.shop);
    expect(shopNow.counters[ORDER.id]!.cancelled).toBe(1);
    expect(shopNow.orders.find((o) => o.id === ORDER.id)!.status).toBe('cancelled');

    // `doctor` agrees that everything is in place.
    expect(npx(['doctor'])).toContain('All checks passed.');
  } finally {
    await client?.close();
    await steward?.context.close();
    rmSync(home, { recursive: true, force: true });
  }
});

/** This process's environment without the variables that would move the browsers' or the bridge's dirs, or npm's project. */
function personEnv(): Record<string, string> {
  const base = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !/^npm_(config|package|lifecycle)_/i.test(e[0])));
  return { ...base, XDG_CONFIG_HOME: '', STEWARD_BRIDGE_HOME: '', STEWARD_EXTENSION_ID: '' };
}
