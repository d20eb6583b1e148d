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
import { type Page, type Worker } from '@playwright/test';
import { expect } from './expect.ts';
import { launchInProfile, type StewardBrowser } from './browser.ts';
import { showView, swRecords } from './panel-helpers.ts';

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
  /** Chromium's profile dir (a relaunch with the same profile is the person's same browser). */
  profile: string;
  /** Environment for bridge processes of this test. */
  env: Record<string, string>;
  /** Closes Chromium only, keeping its profile and the bridge home for a relaunch. */
  closeBrowser(): Promise<void>;
}

/** Runs the CLI to completion (install, uninstall, http-token, status) and returns its stdout. */
export function bridgeCli(args: string[], env: Record<string, string>): string {
  return execFileSync(process.execPath, [BRIDGE_CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 20_000 });
}

export interface BridgeLaunchOptions {
  nativeWebMcp: boolean;
  allowSites: string[];
  /** An earlier launch's bridge home and profile: the same person's browser, started again. */
  home?: string;
  profile?: string;
  /** Extra environment for the bridge processes (e.g. a shorter STEWARD_BRIDGE_LINK_WAIT_MS). */
  env?: Record<string, string>;
}

/** Chromium with Steward, the bridge host installed in its profile; resolves once the host listens on its socket. */
export async function launchWithBridge(options: BridgeLaunchOptions): Promise<BridgeBrowser> {
  // Short: a Unix socket path must fit in 107 bytes.
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'sb-'));
  const profile = options.profile ?? mkdtempSync(join(tmpdir(), 'steward-e2e-'));
  const env = { STEWARD_BRIDGE_HOME: home, STEWARD_BRIDGE_LINK_WAIT_MS: '15000', ...options.env };
  bridgeCli(['install', '--user-data-dir', profile, '--home', home], env);
  const { context, serviceWorker, extensionId } = await launchInProfile(profile, options);
  await expect.poll(() => hostListening(home), { message: 'the bridge host never listened: did Steward start it through native messaging?', timeout: 20_000 }).toBe(true);
  const closeBrowser = async () => {
    await context.close();
  };
  return {
    context,
    serviceWorker,
    extensionId,
    home,
    profile,
    env,
    closeBrowser,
    async close() {
      await closeBrowser();
      rmSync(profile, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Whether the host's socket is there (the host removes it when it exits). */
function hostListening(home: string): boolean {
  return existsSync(join(home, 'bridge.sock'));
}

/**
 * Bridge processes of this test's bridge home that are still alive: of `pgrep -f steward-bridge`,
 * those whose command line or environment names the home (other helpers' bridges may be running).
 */
export function bridgeProcesses(home: string): number[] {
  let out = '';
  try {
    out = execFileSync('pgrep', ['-f', 'steward-bridge'], { encoding: 'utf8' });
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
  const mentionsHome = (pid: number, file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8').includes(home);
    } catch {
      return false; // gone meanwhile
    }
  };
  return out
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => pid !== process.pid && (mentionsHome(pid, 'cmdline') || mentionsHome(pid, 'environ')));
}

/** Of those, the native-messaging hosts Chromium started (`steward-bridge host <origin>`). */
export function hostProcesses(home: string): number[] {
  return bridgeProcesses(home).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('host');
    } catch {
      return false;
    }
  });
}

/** Whether a process is still running (signal 0 checks without touching it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A tool call's result as a client sees it. */
export interface ToolReply {
  isError: boolean;
  text: string;
  structured: Record<string, unknown> | undefined;
  /** The result's `_meta` (the bridge marks page-derived content there). */
  meta: Record<string, unknown> | undefined;
  /** Its image content (steward_screenshot). */
  images: Array<{ mimeType: string; data: string }>;
}

/** One MCP client connected to the bridge, whichever SDK and transport. */
export interface McpClient {
  readonly name: string;
  listTools(): Promise<Array<{ name: string; description?: string; annotations?: Record<string, unknown>; inputSchema: unknown }>>;
  call(tool: string, args?: Record<string, unknown>): Promise<ToolReply>;
  close(): Promise<void>;
  /** stdio only: the `steward-bridge serve` process the client launched. */
  readonly pid?: number | null;
  /** stdio only: what that process wrote on stderr so far (its logs). */
  stderr?(): string;
}

type AnyClient = Pick<ClientV2, 'listTools' | 'callTool' | 'close'>;

function wrap(name: string, client: AnyClient, extra: Partial<Pick<McpClient, 'pid' | 'stderr'>> = {}): McpClient {
  return {
    name,
    ...extra,
    async listTools() {
      return (await client.listTools()).tools as Awaited<ReturnType<McpClient['listTools']>>;
    },
    async call(tool, args = {}) {
      const r = (await client.callTool({ name: tool, arguments: args })) as {
        isError?: boolean;
        content?: Array<{ type: string; text?: string; mimeType?: string; data?: string }>;
        structuredContent?: Record<string, unknown>;
        _meta?: Record<string, unknown>;
      };
      return {
        isError: r.isError === true,
        text: (r.content ?? []).map((c) => (c.type === 'text' ? (c.text ?? '') : '')).join('\n'),
        structured: r.structuredContent,
        meta: r._meta,
        images: (r.content ?? []).flatMap((c) => (c.type === 'image' ? [{ mimeType: c.mimeType ?? '', data: c.data ?? '' }] : [])),
      };
    },
    async close() {
      await client.close();
    },
  };
}

export type SdkLine = 'v2' | 'v1';

/**
 * The credential file a client's MCP config names for it (here one per client name, in the test's
 * bridge home), as a person sets up `steward-bridge serve --credential FILE` once per client.
 */
export function credentialFileFor(world: Pick<BridgeBrowser, 'env'>, name: string): string {
  return join(world.env.STEWARD_BRIDGE_HOME!, 'client-configs', `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.credential`);
}

export interface StdioLaunch {
  /** The credential file on the launch line: the client's own (credentialFileFor) by default; null for a launch line without one. */
  credential?: string | null;
  /** v2 only: called for each notifications/tools/list_changed the server sends. */
  onToolsChanged?: () => void;
  /** More environment for the bridge, as the client's config sets it (STEWARD_CLIENT_KEY, say). */
  env?: Record<string, string>;
  /** v2 only: speak 2026-07-28 (the SDK's `auto` negotiation; its default opens a 2025-era connection). */
  protocol?: '2026-07-28';
}

/** A client that launches `steward-bridge serve` itself (how desktop apps use stdio servers); the server's stderr is collected, never mixed into the protocol. */
export async function connectStdio(world: Pick<BridgeBrowser, 'env'>, sdk: SdkLine, name: string, launch: StdioLaunch = {}): Promise<McpClient> {
  const credential = launch.credential === null ? [] : ['--credential', launch.credential ?? credentialFileFor(world, name)];
  return connectLaunchLine(
    { command: process.execPath, args: [BRIDGE_CLI, 'serve', ...credential], env: { ...(process.env as Record<string, string>), ...world.env, ...launch.env } },
    sdk,
    name,
    launch.onToolsChanged,
    launch.protocol,
  );
}

/** A stdio server as a client's config names it: the command, its arguments and environment. */
export interface LaunchLine {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** A client that starts the server its config names, over stdio, as the client application would (v2: `onToolsChanged` hears list_changed). */
export async function connectLaunchLine(line: LaunchLine, sdk: SdkLine, name: string, onToolsChanged?: () => void, protocol?: '2026-07-28'): Promise<McpClient> {
  const params = { ...line, stderr: 'pipe' as const };
  let err = '';
  const collect = (stream: NodeJS.ReadableStream | null) => stream?.on('data', (d: Buffer) => (err += d.toString()));
  if (sdk === 'v2') {
    const client = new ClientV2(
      { name, version: '1.0.0' },
      {
        ...(onToolsChanged ? { listChanged: { tools: { onChanged: () => onToolsChanged(), autoRefresh: false } } } : {}),
        ...(protocol ? { versionNegotiation: { mode: 'auto' as const } } : {}),
      },
    );
    const transport = new StdioTransportV2(params);
    collect(transport.stderr as NodeJS.ReadableStream | null);
    await client.connect(transport);
    if (protocol && client.getNegotiatedProtocolVersion() !== protocol) throw new Error(`the client negotiated ${client.getNegotiatedProtocolVersion()}, not ${protocol}`);
    return wrap(name, client, { pid: transport.pid, stderr: () => err });
  }
  if (protocol) throw new Error('only the v2 SDK speaks 2026-07-28');
  const client = new ClientV1({ name, version: '1.0.0' });
  const transport = new StdioTransportV1(params);
  collect(transport.stderr as NodeJS.ReadableStream | null);
  await client.connect(transport);
  return wrap(name, client as unknown as AnyClient, { pid: transport.pid, stderr: () => err });
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

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
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

/**
 * A client that connects to the HTTP bridge with its bearer token: a 2025-era client (initialize,
 * then an HTTP session), or with `protocol: '2026-07-28'` (v2 only) a 2026-era one, every request
 * standing alone with its clientInfo in its envelope (the v2 SDK's `auto` negotiation; its default is 2025).
 */
export async function connectHttp(bridge: Pick<HttpBridge, 'url' | 'token'>, sdk: SdkLine, name: string, options: { protocol?: '2026-07-28' } = {}): Promise<McpClient> {
  const requestInit = { headers: { Authorization: `Bearer ${bridge.token}` } };
  if (sdk === 'v2') {
    const client = new ClientV2({ name, version: '1.0.0' }, options.protocol ? { versionNegotiation: { mode: 'auto' } } : {});
    await client.connect(new HttpTransportV2(new URL(bridge.url), { requestInit }));
    if (options.protocol && client.getNegotiatedProtocolVersion() !== options.protocol) throw new Error(`the client negotiated ${client.getNegotiatedProtocolVersion()}, not ${options.protocol}`);
    return wrap(name, client);
  }
  if (options.protocol) throw new Error('only the v2 SDK speaks 2026-07-28');
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
  /** Sites (origins) to tick; all listed sites when absent (wider than the card offers: a test chooses it deliberately). */
  sites?: string[];
  /** The Scopes field; the card's (`*:read`) when absent: a test that acts names the scopes it needs. */
  scopes?: string;
  /** Pair with what the card offers (its sites, scopes and lifetime untouched). */
  asOffered?: boolean;
  /** The code typed; the client's when absent. */
  code?: string;
  /** Ticks "May touch payment"; left off when absent, as the card starts. */
  payment?: boolean;
}

/** What the person does in the side panel: finds the client's pairing request, types the code, chooses sites and scopes, and pairs. */
export async function pairInPanel(panel: Page, clientName: string, code: string, grant: PanelGrant = {}): Promise<void> {
  // A background tab gets few animation frames, and every click waits for one: the person looks at the panel.
  await panel.bringToFront();
  await showView(panel, 'Approvals');
  const card = panel.getByRole('region', { name: `Pairing request from ${clientName}` });
  await expect(card).toBeVisible();
  await card.getByRole('textbox', { name: 'Pairing code' }).fill(grant.code ?? code);
  // The sites load with the card: wait for their checkboxes before choosing.
  const siteBoxes = card.getByRole('group', { name: 'Sites it may use' }).getByRole('checkbox');
  await expect(siteBoxes.first()).toBeVisible();
  for (const box of grant.asOffered ? [] : await siteBoxes.all()) {
    const label = (await box.getAttribute('aria-label')) ?? (await box.evaluate((e) => (e as HTMLInputElement).labels?.[0]?.textContent ?? ''));
    await box.setChecked(grant.sites ? grant.sites.includes(label.trim()) : true);
  }
  if (grant.scopes !== undefined) await card.getByRole('textbox', { name: 'Scopes' }).fill(grant.scopes);
  if (grant.payment) await card.getByRole('checkbox', { name: /May touch payment/ }).check();
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

/** Steward's error codes and the bridge's own, as a client reads them in a tool's answer. */
const ERROR_CODES =
  /\b(APPROVAL_REQUIRED|APPROVAL_DENIED|TOKEN_INVALID|SCOPE_DENIED|QUOTA_EXCEEDED|IDEMPOTENCY_CONFLICT|IN_PROGRESS|TOOL_NOT_FOUND|INVALID_INPUT|EXECUTION_FAILED|PRECONDITION_FAILED|PAIRING_REQUIRED|PAIRING_REFUSED|PAIRING_EXPIRED|PAIRING_UNKNOWN|STEWARD_UNAVAILABLE|SITE_NOT_ALLOWED|TAB_NOT_FOUND|POLICY_DENIED)\b/;

/** A tool's JSON answer: its structured content, or the JSON in its text. */
export function payloadOf(reply: ToolReply): Record<string, unknown> {
  if (reply.structured) return reply.structured;
  const start = reply.text.indexOf('{');
  if (start >= 0) {
    try {
      return JSON.parse(reply.text.slice(start, reply.text.lastIndexOf('}') + 1)) as Record<string, unknown>;
    } catch {
      // not JSON: the caller reads the text
    }
  }
  throw new Error(`expected a JSON answer, got: ${reply.text.slice(0, 500)}`);
}

/** The error code a client sees in a tool's answer (structured `error.code`, or named in the text), or undefined. */
export function errorCodeOf(reply: ToolReply): string | undefined {
  const structured = reply.structured as { error?: { code?: string }; code?: string } | undefined;
  return structured?.error?.code ?? structured?.code ?? ERROR_CODES.exec(reply.text)?.[1];
}

/** The agent id Steward gave a paired client (its token carries the client's name as label). */
export async function agentIdOf(serviceWorker: Worker, clientName: string): Promise<string> {
  const token = (await swRecords(serviceWorker, 'tokens')).find((t) => t.label === clientName);
  if (!token) throw new Error(`no token labelled ${clientName}`);
  return String(token.agent_id);
}

/** The person clicks Approve on the action's card in the side panel's Approvals view. */
export async function approveInPanel(panel: Page, action: string): Promise<void> {
  await panel.bringToFront();
  await showView(panel, 'Approvals');
  const card = panel.locator(`article[data-action="${action}"]`);
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(card).toHaveCount(0);
}

/** The side panel page, opened as a tab (pinned to a tab when given), as the person keeps it open. */
export async function openSidePanel(browser: Pick<StewardBrowser, 'context' | 'extensionId'>, tabId?: number): Promise<Page> {
  const panel = await browser.context.newPage();
  await panel.goto(`chrome-extension://${browser.extensionId}/src/sidepanel/index.html${tabId === undefined ? '' : `?tabId=${tabId}`}`);
  return panel;
}
