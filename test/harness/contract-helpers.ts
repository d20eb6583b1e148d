import type { Locator, Page, Request } from '@playwright/test';
import { launchWithSteward, type StewardBrowser } from './browser.ts';
import { expect, tabIdOf } from './fixtures.ts';
import { showView } from './panel-helpers.ts';
import { control, data, shopOrderPage, type ShopState } from './pipeline-helpers.ts';

/**
 * Shared steps for the contract path's end-to-end tests (issue 16): one browser per spec file, the
 * person connecting Steward to the shop in the side panel's "This tab" view, and the shop's own
 * records (orders, counters, events, its agent tokens, the requests it served) as the ground truth.
 */

/** The demo customer the shop's session signs in as: who the panel says granted the connection. */
const PERSON = 'Jordan Lee';

/** Steward with the demo shop on its list of allowed sites, for a whole spec file. */
export function launchForShop(shopUrl: string): Promise<StewardBrowser> {
  return launchWithSteward({ nativeWebMcp: true, allowSites: [shopUrl] });
}

/**
 * Each test starts from the same place: Steward holds no grant for the shop (disconnected while
 * the shop still knows the token, so the site revokes it), the shop is back at its seed (orders,
 * counters, agent tokens, refund settings) and no page but the first is open.
 */
export async function freshStart(world: StewardBrowser, shopUrl: string): Promise<void> {
  const [keep, ...rest] = world.context.pages();
  for (const p of rest) await p.close();
  const panel = await world.context.newPage();
  await panel.goto(`chrome-extension://${world.extensionId}/src/sidepanel/index.html`);
  for (const site of (await data(control<{ sites: ContractSiteView[] }>(panel, { type: 'panel/contract-sites' }))).sites) {
    if (site.connection.status !== 'none') await control(panel, { type: 'panel/contract-disconnect', origin: site.origin });
  }
  // A card an earlier test left waiting is denied, so no test sees another's.
  for (const card of (await data(control<{ pending: Array<{ request_id: string; input_hash: string; state: { state_version: string | number } }> }>(panel, { type: 'panel/approvals' }))).pending) {
    const decision = {
      request_id: card.request_id,
      decision: 'deny',
      decided_by: 'user:local',
      decided_at: new Date().toISOString(),
      input_hash: card.input_hash,
      state_version: card.state.state_version,
    };
    await control(panel, { type: 'panel/approval-decide', decision });
  }
  await panel.close();
  if (!keep) await world.context.newPage();
  const reset = await fetch(new URL('/__demo/reset', shopUrl), { method: 'POST' });
  expect(reset.ok).toBe(true);
}

/** Opens Steward's side panel as a tab, pinned to the tab of `page`. */
export async function openPanelFor(world: StewardBrowser, page: Page): Promise<Page> {
  const tabId = await tabIdOf(world.serviceWorker, page);
  const panel = await world.context.newPage();
  await panel.goto(`chrome-extension://${world.extensionId}/src/sidepanel/index.html?tabId=${tabId}`);
  return panel;
}

/** The agent's tab on one of the shop's order pages, the side panel pinned to it, and the tab's id. */
export async function onShopOrder(world: StewardBrowser, shopUrl: string, id = 'ORD-1024') {
  const page = await shopOrderPage(world.context, shopUrl, id);
  const panel = await openPanelFor(world, page);
  return { origin: new URL(shopUrl).origin, page, panel, tabId: await tabIdOf(world.serviceWorker, page) };
}

// ── connecting in the side panel ───────────────────────────────────────────────────────────

export interface Consent {
  /** The scopes the person ticks; every other offered scope is left unticked. */
  scopes: string[];
  /** What the person types as the resources the grant covers (`order:ORD-1024`, `order:*`). */
  resources: string;
}

/** The contract section of the "This tab" view: what the shop offers, and Steward's connection to it. */
export async function contractSection(panel: Page): Promise<Locator> {
  await showView(panel, 'This tab');
  const site = panel.getByTestId('contract-site');
  await expect(site, 'the panel never showed the contract the shop offers').toBeVisible();
  return site;
}

/** The person consents in the panel and presses Connect; the panel then says who granted it. */
export async function connectInPanel(panel: Page, consent: Consent): Promise<void> {
  const site = await contractSection(panel);
  const form = site.getByTestId('contract-consent');
  await expect(form).toBeVisible();
  const boxes = form.getByTestId('contract-scope');
  await expect(boxes.first()).toBeVisible();
  const offered = await boxes.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  for (const wanted of consent.scopes) expect(offered, `the shop does not offer ${wanted}`).toContain(wanted);
  for (let i = 0; i < offered.length; i++) await boxes.nth(i).setChecked(consent.scopes.includes(offered[i]!));
  const resources = form.getByTestId('contract-resource-scope');
  if ((await resources.evaluate((e) => e.tagName)) === 'SELECT') await resources.selectOption(consent.resources);
  else await resources.fill(consent.resources);
  const payment = form.getByTestId('contract-payment');
  if ((await payment.count()) > 0 && (await payment.isChecked())) await payment.uncheck();
  await form.getByTestId('contract-connect').click();
  await expect(site.getByTestId('contract-connected')).toContainText(`Connected as ${PERSON}`);
}

// ── the side panel's records ───────────────────────────────────────────────────────────────

export interface ContractSiteView {
  origin: string;
  connection: { status: 'none' } | { status: 'connected'; token_id: string; scopes: string[] } | { status: 'ended'; reason: string; message: string };
}

/** What Steward holds for the shop, as the panel asks it (`panel/contract-site`). */
export async function siteForTab(panel: Page, tabId: number): Promise<ContractSiteView | null> {
  return (await data(control<{ site: ContractSiteView | null }>(panel, { type: 'panel/contract-site', tabId }))).site;
}

/** The journal's head for the action with this idempotency key: Steward's own word on where it stands. */
export async function actionState(panel: Page, idempotencyKey: string): Promise<string | undefined> {
  const heads = (await panel.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('steward');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('journal_actions').objectStore('journal_actions').getAll();
          req.onsuccess = () => (resolve(req.result), open.result.close());
          req.onerror = () => reject(req.error);
        };
      }),
  )) as Array<{ idempotency_key: string; state: string }>;
  return heads.find((h) => h.idempotency_key === idempotencyKey)?.state;
}

export interface AuditEntry {
  kind: string;
  idempotency_key?: string;
  outcome?: string;
  error_code?: string;
  details?: Record<string, unknown>;
}

export async function auditOf(panel: Page, idempotencyKey: string): Promise<AuditEntry[]> {
  return (await data(control<{ entries: AuditEntry[] }>(panel, { type: 'panel/audit' }))).entries.filter((e) => e.idempotency_key === idempotencyKey);
}

/** The pending approval card for an action on an order, in the Approvals view. */
export async function approvalCard(panel: Page, action: string, orderId: string): Promise<Locator> {
  await showView(panel, 'Approvals');
  const card = panel.locator(`article[data-action="${action}"]`).filter({ has: panel.getByRole('heading', { name: new RegExp(`order ${orderId} on `) }) });
  await expect(card).toBeVisible();
  return card;
}

// ── the shop's own records ─────────────────────────────────────────────────────────────────

interface ShopEvent {
  type: string;
  order_id?: string;
  via?: string;
}

export interface ContractShopState extends ShopState {
  events: ShopEvent[];
  agent: { tokens: Array<{ token_id: string; revoked: boolean }>; events: unknown[]; pending_refunds: unknown[] };
}

export async function contractShopState(shopUrl: string): Promise<ContractShopState> {
  return (await (await fetch(new URL('/__demo/state', shopUrl))).json()) as ContractShopState;
}

/** Requests the shop's Agent Action API served (state reads, executions, status polls, tokens). */
export const agentApiRequests = (s: ShopState) => s.requests.filter((r) => r.path.startsWith('/agent/v1/'));
/** Executions the agent API received: what "dispatched to the site" means on the contract path. */
export const executeRequests = (s: ShopState) => s.requests.filter((r) => r.method === 'POST' && r.path === '/agent/v1/actions/execute');
/** Cancellations the shop made of an order, by any path (its event log). */
export const cancellationEvents = (s: ContractShopState, id: string) => s.events.filter((e) => e.type === 'order_cancelled' && e.order_id === id);

async function demoPost(shopUrl: string, path: string, body: unknown = {}): Promise<void> {
  const r = await fetch(new URL(path, shopUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(r.ok, `${path}: ${r.status} ${await r.text()}`).toBe(true);
}

/** How long the shop takes to settle a refund on its own (null: only when a test settles it). */
export const setRefundDelay = (shopUrl: string, refund_delay_ms: number | null) => demoPost(shopUrl, '/__demo/agent/settings', { refund_delay_ms });
/** Settles every pending refund now. */
export const settleRefunds = (shopUrl: string) => demoPost(shopUrl, '/__demo/agent/settle');
/** Moves an order to a state behind everyone's back (the shop's test control). */
export const setOrderStatus = (shopUrl: string, id: string, status: string) => demoPost(shopUrl, `/__demo/orders/${id}`, { status });

// ── what left the browser ──────────────────────────────────────────────────────────────────

export interface SentRequest {
  method: string;
  path: string;
  /** Sent by Steward's service worker (its own fetch), not by a page. */
  byWorker: boolean;
  headers: Record<string, string>;
}

/**
 * Records every request the browser sends to `origin`, pages' and Steward's service worker's
 * alike, with the headers as they were sent. `sent()` waits for the headers of all of them.
 */
export function recordRequests(world: StewardBrowser, origin: string): { sent: () => Promise<SentRequest[]>; stop: () => void } {
  const pending: Array<Promise<SentRequest>> = [];
  const listener = (r: Request) => {
    const url = new URL(r.url());
    if (url.origin !== origin) return;
    pending.push(r.allHeaders().then((headers) => ({ method: r.method(), path: url.pathname, byWorker: r.serviceWorker() !== null, headers })));
  };
  world.context.on('request', listener);
  return { sent: () => Promise.all(pending), stop: () => world.context.off('request', listener) };
}

/** The request-signing and token headers a request carried (Web Bot Auth's three, and Authorization). */
export const agentHeadersOf = (r: SentRequest) => ['signature', 'signature-input', 'signature-agent', 'authorization'].filter((h) => h in r.headers);
