import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Worker } from '@playwright/test';
import { startDemoSites, freePorts, type RunningDemoSites } from '../../sites/server.ts';
import { tabIdOfAnyPage } from './browser.ts';
import { launchWithBridge, type BridgeBrowser } from './bridge-harness.ts';
import { swRecords } from './panel-helpers.ts';
import { tabIdOf } from './fixtures.ts';

export { tabIdOf };

/**
 * What the refusal specs share: one Chromium with Steward and the bridge host, the demo sites (the
 * lab is never an allowed site: it plays the foreign origin), the side panel pinned to the shop's
 * order page, and the outside views a test checks after a hostile attempt: the shop's own records,
 * Steward's tokens, pending pairings and audit log.
 */

export interface RefusalWorld {
  sites: RunningDemoSites;
  bridge: BridgeBrowser;
  /** The shop's ORD-1024 page. */
  shopPage: Page;
  panel: Page;
  close(): Promise<void>;
}

export async function startRefusalWorld(): Promise<RefusalWorld> {
  const sites = await startDemoSites({ ports: freePorts() });
  const bridge = await launchWithBridge({ nativeWebMcp: true, allowSites: [sites.urls.shop, sites.urls.clinic] });
  const shopPage = await bridge.context.newPage();
  await shopPage.goto(`${sites.urls.shop}/orders/ORD-1024`);
  const tabId = await tabIdOf(bridge.serviceWorker, shopPage);
  const panel = await bridge.context.newPage();
  await panel.goto(`chrome-extension://${bridge.extensionId}/src/sidepanel/index.html?tabId=${tabId}`);
  return {
    sites,
    bridge,
    shopPage,
    panel,
    async close() {
      await bridge.close();
      await sites.stop();
    },
  };
}

/** Any tab's id, Steward's page script or not (a page on a site Steward may not observe): call it right after opening the page. */
export const anyTabIdOf = (serviceWorker: Worker, page: Page): Promise<number> => tabIdOfAnyPage(serviceWorker, page);

/** A panel-channel request, sent as the side panel sends it (reads only: the tests act through the UI). */
async function panelAsk<T>(panel: Page, message: Record<string, unknown>): Promise<T> {
  const reply = (await panel.evaluate((m) => chrome.runtime.sendMessage(m), message)) as { ok: boolean; data?: T; error?: unknown };
  if (!reply.ok) throw new Error(`${String(message.type)} refused: ${JSON.stringify(reply.error)}`);
  return reply.data!;
}

interface PendingPairing {
  pairing_id: string;
  client: { name: string; transport: string };
  wrong_codes: number;
}

export async function pendingPairings(panel: Page): Promise<PendingPairing[]> {
  return (await panelAsk<{ pending: PendingPairing[] }>(panel, { type: 'panel/pairings' })).pending;
}

interface TokenRow {
  token: { token_id: string; agent_id: string; label?: string; scope: string[]; origins: string[] };
  status: 'active' | 'expired' | 'revoked';
}

export async function tokens(panel: Page): Promise<TokenRow[]> {
  return (await panelAsk<{ tokens: TokenRow[] }>(panel, { type: 'panel/tokens' })).tokens;
}

/** Tokens minted for an MCP client of this name (its label), in any state. */
export async function tokensLabelled(panel: Page, clientName: string): Promise<TokenRow[]> {
  return (await tokens(panel)).filter((t) => t.token.label === clientName);
}

interface AuditRow {
  kind: string;
  agent_id: string;
  action?: string;
}

/** The audit log's entries, from the service worker's own records. */
export async function auditRows(sw: Worker): Promise<AuditRow[]> {
  return (await swRecords(sw, 'audit')) as unknown as AuditRow[];
}

/** Entries showing that an action was sent down a path (or reached the site). */
export async function dispatches(sw: Worker): Promise<AuditRow[]> {
  return (await auditRows(sw)).filter((e) => ['dispatch', 'acceptance', 'confirmation'].includes(e.kind));
}

interface ShopRecords {
  orders: Array<{ id: string; status: string }>;
  counters: Record<string, { cancelled: number; paid: number; cancel_refused: number; items_added: number; address_changes: number }>;
}

export async function shopRecords(shopUrl: string): Promise<ShopRecords> {
  return (await (await fetch(new URL('/__demo/state', shopUrl))).json()) as ShopRecords;
}

/** What the shop's server did to its orders (not its request log): the state a hostile attempt must leave alone. */
export async function shopOutcome(shopUrl: string): Promise<string> {
  const s = await shopRecords(shopUrl);
  return JSON.stringify([s.orders.map((o) => [o.id, o.status]), s.counters]);
}

interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request with exactly the headers given (node:http sends Host and Origin as written,
 * which fetch would not): how a local process or a rebinding page reaches the bridge's port.
 */
export function rawHttp(port: number, options: { method: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: options.method, path: options.path ?? '/mcp', headers: options.headers ?? {}, setHost: !options.headers?.Host }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil-page', version: '1.0.0' } },
});

export const CALL_TABS = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'steward_tabs', arguments: {} } });

/**
 * One request written straight onto the host's socket, as any process of this user could: the
 * reply Steward sent back, or what the host said instead.
 */
export function socketRequest(home: string, message: Record<string, unknown>): Promise<{ ok: boolean; data?: unknown; error?: { code: string; message: string } }> {
  return new Promise((resolve, reject) => {
    const socket = connect(join(home, 'bridge.sock'));
    let buffered = '';
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no answer on the socket to ${JSON.stringify(message)}`))), 15_000);
    socket.on('error', (e) => (clearTimeout(timer), reject(e)));
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      socket.end();
      resolve((JSON.parse(buffered.slice(0, newline)) as { reply: never }).reply);
    });
    socket.write(`${JSON.stringify({ id: 'forged-1', message })}\n`);
  });
}

/**
 * A second bridge home that reaches the same host (its socket linked in) but holds none of the
 * first home's credentials: another process of this user, without the paired client's file.
 */
export function homeWithoutCredentials(bridge: Pick<BridgeBrowser, 'home' | 'env'>): { env: Record<string, string>; dispose(): void } {
  const home = mkdtempSync(join(tmpdir(), 'sb-x-'));
  symlinkSync(join(bridge.home, 'bridge.sock'), join(home, 'bridge.sock'));
  return { env: { ...bridge.env, STEWARD_BRIDGE_HOME: home }, dispose: () => rmSync(home, { recursive: true, force: true }) };
}
