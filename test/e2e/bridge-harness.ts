import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, type Page } from '@playwright/test';
import { launchWithSteward, type StewardBrowser } from './browser.ts';
import { showView } from './panel-helpers.ts';

/**
 * The MCP bridge for end-to-end tests, as a person sets it up: `steward-bridge install` writes the
 * native-messaging host into the test profile (before Chromium starts) with its own bridge home,
 * Chromium with Steward starts the host, and MCP clients (the official SDK, v2 and v1) reach it
 * over stdio (the client launches `steward-bridge serve`) or HTTP (`serve --http`).
 */

export const BRIDGE_CLI = join(import.meta.dirname, '..', '..', 'bridge', 'bin', 'steward-bridge.js');

export interface BridgeBrowser extends StewardBrowser {
  /** The bridge's home dir (socket, credentials, HTTP token) for this test. */
  home: string;
  /** Environment for bridge processes of this test. */
  env: Record<string, string>;
}

/** Runs the CLI to completion (install, uninstall, http-token, status) and returns its stdout. */
export function bridgeCli(args: string[], env: Record<string, string>): string {
  return execFileSync(process.execPath, [BRIDGE_CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 20_000 });
}

/** Chromium with Steward, the bridge host installed in its profile; resolves once the host listens on its socket. */
export async function launchWithBridge(options: { nativeWebMcp: boolean; allowSites: string[] }): Promise<BridgeBrowser> {
  // Short: a Unix socket path must fit in 107 bytes.
  const home = mkdtempSync(join(tmpdir(), 'sb-'));
  const env = { STEWARD_BRIDGE_HOME: home, STEWARD_BRIDGE_LINK_WAIT_MS: '15000' };
  const browser = await launchWithSteward({ ...options, prepareProfile: (profile) => bridgeCli(['install', '--user-data-dir', profile, '--home', home], env) });
  await expect.poll(() => existsSync(join(home, 'bridge.sock')), { message: 'the bridge host never listened: did Steward start it through native messaging?', timeout: 20_000 }).toBe(true);
  return {
    ...browser,
    home,
    env,
    async close() {
      await browser.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A tool call's result as a client sees it. */
export interface ToolReply {
  isError: boolean;
  text: string;
  structured: Record<string, unknown> | undefined;
}

/** One MCP client connected to the bridge, whichever SDK and transport. */
export interface McpClient {
  readonly name: string;
  listTools(): Promise<Array<{ name: string; description?: string; annotations?: Record<string, unknown>; inputSchema: unknown }>>;
  call(tool: string, args?: Record<string, unknown>): Promise<ToolReply>;
  close(): Promise<void>;
}

type AnyClient = Pick<ClientV2, 'listTools' | 'callTool' | 'close'>;

function wrap(name: string, client: AnyClient, onClose: () => Promise<void> = async () => undefined): McpClient {
  return {
    name,
    async listTools() {
      return (await client.listTools()).tools as Awaited<ReturnType<McpClient['listTools']>>;
    },
    async call(tool, args = {}) {
      const r = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean; content?: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };
      return {
        isError: r.isError === true,
        text: (r.content ?? []).map((c) => (c.type === 'text' ? (c.text ?? '') : '')).join('\n'),
        structured: r.structuredContent,
      };
    },
    async close() {
      await client.close();
      await onClose();
    },
  };
}

export type SdkLine = 'v2' | 'v1';

/** A client that launches `steward-bridge serve` itself (how desktop apps use stdio servers). */
export async function connectStdio(world: Pick<BridgeBrowser, 'env'>, sdk: SdkLine, name: string): Promise<McpClient> {
  const params = { command: process.execPath, args: [BRIDGE_CLI, 'serve'], env: { ...(process.env as Record<string, string>), ...world.env }, stderr: 'pipe' as const };
  if (sdk === 'v2') {
    const client = new ClientV2({ name, version: '1.0.0' });
    await client.connect(new StdioTransportV2(params));
    return wrap(name, client);
  }
  const client = new ClientV1({ name, version: '1.0.0' });
  await client.connect(new StdioTransportV1(params));
  return wrap(name, client as unknown as AnyClient);
}

export interface HttpBridge {
  url: string;
  port: number;
  token: string;
  process: ChildProcess;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `steward-bridge serve --http` on a free port, with the bearer the person would copy into their client. */
export async function startHttpBridge(world: Pick<BridgeBrowser, 'env' | 'home'>): Promise<HttpBridge> {
  const port = await freePort();
  const child = spawn(process.execPath, [BRIDGE_CLI, 'serve', '--http', '--port', String(port)], { env: { ...process.env, ...world.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const url = `http://127.0.0.1:${port}/mcp`;
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`steward-bridge serve --http exited (${child.exitCode}): ${err}`);
        return fetch(url, { method: 'POST' })
          .then((r) => r.status)
          .catch(() => 0);
      },
      { message: 'the HTTP bridge never answered', timeout: 15_000 },
    )
    .toBeGreaterThan(0);
  const token = readFileSync(join(world.home, 'http-token'), 'utf8').trim();
  return {
    url,
    port,
    token,
    process: child,
    stderr: () => err,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A client that connects to the HTTP bridge with its bearer token. */
export async function connectHttp(bridge: Pick<HttpBridge, 'url' | 'token'>, sdk: SdkLine, name: string): Promise<McpClient> {
  const requestInit = { headers: { Authorization: `Bearer ${bridge.token}` } };
  if (sdk === 'v2') {
    const client = new ClientV2({ name, version: '1.0.0' });
    await client.connect(new HttpTransportV2(new URL(bridge.url), { requestInit }));
    return wrap(name, client);
  }
  const client = new ClientV1({ name, version: '1.0.0' });
  await client.connect(new HttpTransportV1(new URL(bridge.url), { requestInit }));
  return wrap(name, client as unknown as AnyClient);
}

/** The pairing code in a PAIRING_REQUIRED answer (the client shows it; the person types it into the panel). */
export function pairingCodeOf(reply: ToolReply): string {
  const code = /\b(\d{3}-\d{3})\b/.exec(reply.text)?.[1];
  if (!reply.isError || !code) throw new Error(`expected a pairing request with a code, got: ${reply.text.slice(0, 500)}`);
  return code;
}

export interface PanelGrant {
  /** Sites (origins) to tick; all listed sites when absent. */
  sites?: string[];
  /** The Scopes field; `*:*` when absent. */
  scopes?: string;
  /** The code typed; the client's when absent. */
  code?: string;
}

/** What the person does in the side panel: finds the client's pairing request, types the code, chooses sites and scopes, and pairs. */
export async function pairInPanel(panel: Page, clientName: string, code: string, grant: PanelGrant = {}): Promise<void> {
  await showView(panel, 'Approvals');
  const card = panel.getByRole('region', { name: `Pairing request from ${clientName}` });
  await expect(card).toBeVisible();
  await card.getByRole('textbox', { name: 'Pairing code' }).fill(grant.code ?? code);
  if (grant.sites) {
    for (const box of await card.getByRole('checkbox').all()) {
      const label = (await box.getAttribute('aria-label')) ?? (await box.evaluate((e) => (e as HTMLInputElement).labels?.[0]?.textContent ?? ''));
      await box.setChecked(grant.sites.some((s) => label.includes(s)));
    }
  }
  if (grant.scopes !== undefined) await card.getByRole('textbox', { name: 'Scopes' }).fill(grant.scopes);
  await card.getByRole('button', { name: 'Pair' }).click();
}

/**
 * A client paired through the panel: its first call asks to pair (PAIRING_REQUIRED with a code),
 * the person pairs in the panel, and the same call then goes through.
 */
export async function pairClient(client: McpClient, panel: Page, grant: PanelGrant = {}): Promise<ToolReply> {
  const first = await client.call('steward_tabs');
  const code = pairingCodeOf(first);
  await pairInPanel(panel, client.name, code, grant);
  await expect(panel.getByRole('region', { name: `Pairing request from ${client.name}` })).toHaveCount(0);
  const second = await client.call('steward_tabs');
  expect(second.isError, second.text).toBe(false);
  return second;
}
