import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import {
  agentIdOf,
  bridgeCli,
  connectHttp,
  connectStdio,
  launchWithBridge,
  openSidePanel,
  pairClient,
  payloadOf,
  startHttpBridge,
  type BridgeBrowser,
  type HttpBridge,
  type McpClient,
  type SdkLine,
} from '../harness/bridge-harness.ts';
import { showView } from '../harness/panel-helpers.ts';

/**
 * Clients that connect to a running bridge over Streamable HTTP on 127.0.0.1 with the bearer the
 * person copies from `steward-bridge http-token`: today's desktop apps (the v1
 * `@modelcontextprotocol/sdk` client), the v2 client on a 2025-era session, and the v2 client on
 * the 2026-07-28 protocol (no session: every request stands alone). Each pairs as its own agent with its own
 * token, both listed in the Tokens view under the client's name, and each observes the clinic.
 * The v1 client also launches the bridge over stdio, as desktop apps configured with a command do.
 */

const CLIENTS: Array<{ sdk: SdkLine; name: string; protocol?: '2026-07-28' }> = [
  { sdk: 'v1', name: 'Legacy Desktop' },
  { sdk: 'v2', name: 'Modern IDE' },
  { sdk: 'v2', name: 'Stateless Agent', protocol: '2026-07-28' },
];

/** The client opens the clinic and reads what Steward sees there. */
async function observesTheClinic(client: McpClient, clinicUrl: string): Promise<void> {
  const opened = await client.call('steward_open', { url: clinicUrl });
  expect(opened.isError, opened.text).toBe(false);
  const tabId = (payloadOf(opened) as { tab: { tab_id: number } }).tab.tab_id;
  await expect
    .poll(async () => {
      const observed = await client.call('steward_observe', { tab_id: tabId });
      return (payloadOf(observed) as { summary?: { url: string; resource: unknown } }).summary?.resource ?? null;
    })
    .not.toBeNull();
  const observed = await client.call('steward_observe', { tab_id: tabId });
  expect(observed.isError, observed.text).toBe(false);
  expect((payloadOf(observed) as { summary: { url: string } }).summary.url).toContain(new URL(clinicUrl).host);
  expect(observed.text).toContain('Riverside Family Clinic');
}

test.describe.serial('MCP clients over HTTP (SDK v1, v2 on 2025 and on 2026-07-28), and the v1 client over stdio', () => {
  let world: BridgeBrowser;
  let http: HttpBridge;
  let panel: Page;
  const clients: McpClient[] = [];

  test.beforeAll(async ({ sites }) => {
    for (const url of Object.values(sites.urls)) await fetch(new URL('/__demo/reset', url), { method: 'POST' });
    world = await launchWithBridge({ nativeWebMcp: true, allowSites: [sites.urls.clinic, sites.urls.shop] });
    http = await startHttpBridge(world);
    panel = await openSidePanel(world);
  });

  test.afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await http?.stop();
    await world?.close();
  });

  test('`steward-bridge http-token` prints the URL and the bearer the server checks', () => {
    const printed = bridgeCli(['http-token'], world.env);
    expect(printed).toContain(http.token);
    expect(printed).toMatch(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
  });

  for (const { sdk, name, protocol } of CLIENTS) {
    test(`the ${sdk} client${protocol ? ` on ${protocol}` : ''} pairs over HTTP and observes the clinic`, async ({ sites }) => {
      const client = await connectHttp(http, sdk, name, protocol ? { protocol } : {});
      clients.push(client);
      await pairClient(client, panel, { sites: [new URL(sites.urls.clinic).origin], scopes: '*:*' });

      await observesTheClinic(client, sites.urls.clinic);
    });
  }

  test('each client is its own agent with its own token, listed in the Tokens view under its name', async () => {
    const agents = await Promise.all(CLIENTS.map(({ name }) => agentIdOf(world.serviceWorker, name)));
    expect(new Set(agents).size).toBe(CLIENTS.length);
    await panel.bringToFront();
    await showView(panel, 'Tokens');
    for (const [i, { name }] of CLIENTS.entries()) {
      const card = panel.getByRole('article').filter({ hasText: name });
      await expect(card).toHaveCount(1);
      await expect(card).toContainText('MCP client');
      await expect(panel.locator('body')).toContainText(agents[i]!);
      await expect(card.getByRole('button', { name: 'Revoke' })).toBeVisible();
    }
  });

  test('the v1 client over stdio (how desktop apps launch a server) pairs as its own agent and observes the clinic too', async ({ sites }) => {
    const client = await connectStdio(world, 'v1', 'Legacy Stdio App');
    clients.push(client);
    await pairClient(client, panel, { sites: [new URL(sites.urls.clinic).origin], scopes: '*:*' });
    await observesTheClinic(client, sites.urls.clinic);
    const agents = await Promise.all([...CLIENTS.map(({ name }) => name), client.name].map((name) => agentIdOf(world.serviceWorker, name)));
    expect(new Set(agents).size).toBe(CLIENTS.length + 1);
  });
});
