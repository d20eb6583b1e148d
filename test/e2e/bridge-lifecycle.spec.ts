import { spawn } from 'node:child_process';
import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import {
  alive,
  BRIDGE_CLI,
  bridgeProcesses,
  connectStdio,
  errorCodeOf,
  hostProcesses,
  launchWithBridge,
  openSidePanel,
  pairClient,
  type BridgeBrowser,
  type McpClient,
} from '../harness/bridge-harness.ts';
import { showView } from '../harness/panel-helpers.ts';

/**
 * The bridge as a person lives with it: the browser closes and comes back, clients come and go.
 * A call while the browser is closed gets a clear STEWARD_UNAVAILABLE (no hang, no crash), the same
 * client works again without re-pairing once the browser is back, no bridge process outlives its
 * client or the browser, and the stdio server writes nothing but MCP frames on stdout.
 */

const CLIENT = 'Lifecycle Client';
/** How long the link waits for Steward before answering STEWARD_UNAVAILABLE; short here, so a closed browser is quick to report. */
const LINK_WAIT_MS = 1500;

test.describe.serial('the bridge across browser restarts and client exits', () => {
  let world: BridgeBrowser;
  let panel: Page;
  let client: McpClient;
  let allowed: string[];

  test.beforeAll(async ({ sites }) => {
    allowed = [sites.urls.clinic];
    world = await launchWithBridge({ nativeWebMcp: true, allowSites: allowed, env: { STEWARD_BRIDGE_LINK_WAIT_MS: String(LINK_WAIT_MS) } });
    panel = await openSidePanel(world);
    client = await connectStdio(world, 'v2', CLIENT);
    await pairClient(client, panel, { sites: [new URL(sites.urls.clinic).origin], scopes: '*:*' });
  });

  test.afterAll(async () => {
    await client?.close().catch(() => undefined);
    await world?.close();
  });

  test('the stdio server writes only MCP frames on stdout, its logs on stderr, and exits when its client hangs up', async () => {
    const server = spawn(process.execPath, [BRIDGE_CLI, 'serve'], { env: { ...process.env, ...world.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    server.stdout.on('data', (d: Buffer) => (out += d.toString()));
    server.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    const send = (message: Record<string, unknown>) => server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const frames = () =>
      out
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as { jsonrpc: string; id?: number; result?: Record<string, unknown> });

    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'Raw Client', version: '0.0.1' } } });
    await expect.poll(() => frames().some((f) => f.id === 1)).toBe(true);
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
    // An unpaired client's call: the server talks to Steward, asks for pairing, and logs that.
    send({ id: 3, method: 'tools/call', params: { name: 'steward_tabs', arguments: {} } });
    await expect.poll(() => frames().filter((f) => f.id === 2 || f.id === 3).length).toBe(2);
    for (const frame of frames()) expect(frame.jsonrpc).toBe('2.0');
    expect(JSON.stringify(frames().find((f) => f.id === 3)?.result)).toContain('PAIRING_REQUIRED');
    expect(err.trim().length, 'the server logs on stderr').toBeGreaterThan(0);

    server.stdin.end();
    expect(await exited).toBe(0);
    expect(bridgeProcesses(world.home)).not.toContain(server.pid);
  });

  test('with the browser closed, a call gets STEWARD_UNAVAILABLE at once and the server keeps running', async () => {
    const hosts = hostProcesses(world.home);
    expect(hosts).toHaveLength(1);
    await world.closeBrowser();
    await expect.poll(() => hosts.filter(alive), { message: 'the native host outlived the browser' }).toEqual([]);

    for (let i = 0; i < 2; i++) {
      const started = Date.now();
      const reply = await client.call('steward_tabs');
      expect(reply.isError).toBe(true);
      expect(errorCodeOf(reply), reply.text).toBe('STEWARD_UNAVAILABLE');
      expect(reply.text).toContain('browser');
      expect(Date.now() - started, 'answered within the link’s wait, not hung').toBeLessThan(LINK_WAIT_MS + 5000);
      expect(alive(client.pid!), 'the MCP server is still running').toBe(true);
    }
    expect(client.stderr!()).not.toMatch(/uncaught|unhandled/i);
  });

  test('once the browser is back (same profile), the same client works again without pairing again', async () => {
    world = await launchWithBridge({ nativeWebMcp: true, allowSites: allowed, home: world.home, profile: world.profile, env: world.env });
    panel = await openSidePanel(world);
    await expect
      .poll(async () => {
        const reply = await client.call('steward_tabs');
        return reply.isError ? errorCodeOf(reply) : 'ok';
      })
      .toBe('ok');
    expect(await panel.getByRole('region', { name: /^Pairing request from/ }).count()).toBe(0);
    await panel.bringToFront();
    await showView(panel, 'Settings');
    await expect(panel.getByRole('status').filter({ hasText: 'MCP bridge' })).toHaveText('MCP bridge: connected');
  });

  test('closing the client ends its server; closing the browser ends the host; nothing is left behind', async () => {
    const serverPid = client.pid!;
    expect(bridgeProcesses(world.home)).toContain(serverPid);
    await client.close();
    await expect.poll(() => alive(serverPid), { message: 'steward-bridge serve outlived its client' }).toBe(false);
    expect(bridgeProcesses(world.home)).toEqual(hostProcesses(world.home));
    expect(hostProcesses(world.home)).toHaveLength(1);

    await world.closeBrowser();
    await expect.poll(() => bridgeProcesses(world.home), { message: 'bridge processes outlived the browser' }).toEqual([]);
  });
});
