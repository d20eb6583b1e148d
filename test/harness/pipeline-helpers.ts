import type { BrowserContext, Page, Route, Worker } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * Helpers for the pipeline end-to-end tests: the side panel page speaks to the service worker
 * exactly as the real panel does (chrome.runtime.sendMessage), and the demo servers' own records
 * are the ground truth for what happened.
 */

export type Envelope<T = Record<string, unknown>> = { ok: true; data: T } | { ok: false; error: { code: string; message: string; retryable: boolean } };

/** Sends a control message from the side panel page. */
export function control<T = Record<string, unknown>>(panel: Page, message: Record<string, unknown>): Promise<Envelope<T>> {
  return panel.evaluate((m) => chrome.runtime.sendMessage(m), message) as Promise<Envelope<T>>;
}

export async function data<T = Record<string, unknown>>(reply: Promise<Envelope<T>>): Promise<T> {
  const r = await reply;
  if (!r.ok) throw new Error(`control message refused: ${r.error.code}: ${r.error.message}`);
  return r.data;
}

export const COPILOT = 'agent:copilot';

export interface Grant {
  scope: string[];
  resource_scope: string;
  origins: string[];
  ttl_ms?: number;
}

/** Mints a co-pilot token; the token's public id (records, panel, revoke) and its secret (what the agent presents). */
export async function mintWithId(panel: Page, grant: Grant): Promise<{ token_id: string; secret: string }> {
  const minted = await data<{ token: { token_id: string }; secret: string }>(control(panel, { type: 'panel/token-mint', agent_id: COPILOT, ttl_ms: 10 * 60_000, ...grant }));
  return { token_id: minted.token.token_id, secret: minted.secret };
}

/** Mints a co-pilot token and returns what the agent presents: its secret. */
export async function mint(panel: Page, grant: Grant): Promise<string> {
  return (await mintWithId(panel, grant)).secret;
}

export interface ObservedSummary {
  resource: { type: string; id: string };
  state: string;
  state_version: string | number;
  source: string;
  available_actions: string[];
  confidence: number;
  conflicts: string[];
}

export async function observe(panel: Page, tabId: number): Promise<ObservedSummary> {
  const r = await data<{ state: ObservedSummary | null; error?: string }>(control(panel, { type: 'panel/observe-tab', tabId }));
  if (!r.state) throw new Error(`observe-tab failed: ${r.error}`);
  return r.state;
}

/** Submits as the co-pilot; `token` is the secret from mint(). */
export function submit(panel: Page, body: { token: string; tabId: number; request: Record<string, unknown>; wait_for_approval?: boolean; expect?: Record<string, unknown> }) {
  return control<{ result: Record<string, unknown> & { error?: { code: string } } }>(panel, { type: 'agent/submit', agent_id: COPILOT, ...body });
}

export interface Card {
  request_id: string;
  action: string;
  input_hash: string;
  state: { state_version: string | number; state: string };
  resource: { type: string; id: string };
  reasons: Array<{ code: string }>;
}

/** Waits until the side panel sees a pending approval card for this action. */
export async function pendingCard(panel: Page, action: string): Promise<Card> {
  let card: Card | undefined;
  await expect
    .poll(async () => {
      const r = await data<{ pending: Card[] }>(control(panel, { type: 'panel/approvals' }));
      card = r.pending.find((c) => c.action === action);
      return card !== undefined;
    })
    .toBe(true);
  return card!;
}

/** The person's "Approve" of this card, as the side panel sends it. */
export function approvalOf(card: Card) {
  const decision = { request_id: card.request_id, decision: 'approve', decided_by: 'user:local', decided_at: new Date().toISOString() };
  return { type: 'panel/approval-decide', decision: { ...decision, input_hash: card.input_hash, state_version: card.state.state_version } };
}

export function approve(panel: Page, card: Card) {
  return control(panel, approvalOf(card));
}

/** Submits the request, approves its card if Steward asks the person, and resolves with the pipeline's result. */
export async function submitApproving(panel: Page, body: Parameters<typeof submit>[1]): Promise<Record<string, unknown>> {
  let result: Record<string, unknown> | undefined;
  const sent = data(submit(panel, body)).then((r) => (result = r.result));
  await expect
    .poll(async () => {
      if (result) return true;
      const card = (await data<{ pending: Card[] }>(control(panel, { type: 'panel/approvals' }))).pending.find((c) => c.action === (body.request.action as string));
      if (card) await data(approve(panel, card));
      return false;
    })
    .toBe(true);
  await sent;
  return result!;
}

// ── the demo shop's own records ────────────────────────────────────────────────────────────
export interface ShopState {
  orders: Array<{ id: string; status: string }>;
  counters: Record<string, { cancelled: number; cancel_refused: number; status_overrides: number }>;
  requests: Array<{ method: string; path: string; status: number }>;
}

export async function shopState(shopUrl: string): Promise<ShopState> {
  return (await (await fetch(new URL('/__demo/state', shopUrl))).json()) as ShopState;
}

/** Cancellation requests the shop received for an order (form posts and API calls). */
export const ORDER = { type: 'order', id: 'ORD-1024' };

/** orders.cancel on ORD-1024, only if it is still awaiting payment in the state the agent observed. */
export const cancelAsObserved = (before: { state_version: string | number }, reason: string, idempotency_key: string) => ({
  action: 'orders.cancel',
  resource: ORDER,
  preconditions: { expected_state: 'awaiting_payment', state_version: before.state_version },
  input: { reason },
  idempotency_key,
});

export const cancelRequests = (s: ShopState, id: string) => s.requests.filter((r) => r.method === 'POST' && (r.path === `/orders/${id}/cancel` || r.path === `/api/orders/${id}/cancel`));

export async function shopOrderPage(context: BrowserContext, shopUrl: string, id = 'ORD-1024'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${shopUrl}/orders/${id}`);
  // The page fetches its live status after load; acting on a settled page keeps the test about Steward.
  await expect(page.locator('#live-status')).not.toHaveText('Live status: checking…');
  return page;
}

// ── the journal, read from the extension's IndexedDB by the panel page (same origin) ───────
export interface JournalHead {
  action_id: string;
  state: string;
  idempotency_key: string;
}

export function journal(panel: Page): Promise<{ heads: JournalHead[]; entries: Array<{ action_id: string; seq: number; state: string; from?: string }> }> {
  return panel.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('steward');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(['journal_actions', 'journal'], 'readonly');
          const heads = tx.objectStore('journal_actions').getAll();
          const entries = tx.objectStore('journal').getAll();
          tx.oncomplete = () => {
            db.close();
            resolve({ heads: heads.result, entries: entries.result });
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  ) as Promise<{ heads: JournalHead[]; entries: Array<{ action_id: string; seq: number; state: string; from?: string }> }>;
}

/** The journal's states of the action of this key, in order: the one history a restart must not fork. */
export async function historyOf(panel: Page, key: string): Promise<string[]> {
  const j = await journal(panel);
  const head = j.heads.find((h) => h.idempotency_key === key)!;
  return j.entries
    .filter((e) => e.action_id === head.action_id)
    .sort((a, b) => a.seq - b.seq)
    .map((e) => e.state);
}

// ── killing the service worker (CDP) ───────────────────────────────────────────────────────
/**
 * Stops every service worker through CDP (`ServiceWorker.stopAllWorkers`, from an extension
 * page's session: persistent contexts have no browser session) and waits until the instance that
 * was running is gone: a marker set on its global scope is no longer there. Playwright's Worker
 * handle follows the worker across the restart, so a failing evaluate is not the signal.
 */
export async function killServiceWorker(page: Page, worker: Worker): Promise<void> {
  await worker.evaluate(() => ((globalThis as unknown as { __stewardKillMarker?: boolean }).__stewardKillMarker = true));
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  await expect.poll(async () => worker.evaluate(() => (globalThis as unknown as { __stewardKillMarker?: boolean }).__stewardKillMarker === true).catch(() => false), { timeout: 10_000 }).toBe(false);
}

/** The (re)started worker, once it has recovered; its start time proves it is a new instance. */
export async function liveWorker(context: BrowserContext, extensionId: string, startedAfter: number): Promise<Worker> {
  let found: Worker | undefined;
  await expect
    .poll(
      async () => {
        for (const w of context.serviceWorkers()) {
          if (!w.url().startsWith(`chrome-extension://${extensionId}/`)) continue;
          const started = await w.evaluate(() => (globalThis as unknown as { stewardPipeline?: { startedAt: number } }).stewardPipeline?.startedAt).catch(() => undefined);
          if (started !== undefined && started > startedAfter) found = w;
        }
        return found !== undefined;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** Holds the next request matching `path` until released; resolves `seen` when it arrives. */
export async function hold(page: Page, method: string, path: string) {
  let release!: () => Promise<void>;
  const matches = (url: URL) => url.pathname === path;
  const seen = new Promise<void>((resolveSeen) => {
    void page.route(matches, async (route: Route) => {
      if (route.request().method() !== method) return route.continue();
      release = async () => {
        await route.continue();
        await page.unroute(matches);
      };
      resolveSeen();
    });
  });
  return { seen, release: () => release() };
}
