import { type Page, type Worker } from '@playwright/test';
import { expect } from './expect.ts';
import type { StewardBrowser } from './browser.ts';

/** Shared steps for the side panel's e2e tests: everything goes through the panel's UI or its own messages. */

export const SHOP_ORDER = 'ORD-1024';

export async function shopState(shopUrl: string): Promise<{
  orders: Array<{ id: string; status: string }>;
  counters: Record<string, { cancelled: number; paid: number; cancel_refused: number; items_added: number }>;
}> {
  return (await (await fetch(new URL('/__demo/state', shopUrl))).json()) as never;
}

/** Clicks a view's tab (named "Approvals", "Activity", "Tokens", "This tab", "Settings"). */
export async function showView(panel: Page, name: string): Promise<void> {
  await panel.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
  await expect(panel.getByRole('tab', { name: new RegExp(`^${name}`) })).toHaveAttribute('aria-selected', 'true');
}

export interface UiGrant {
  agent?: string;
  scopes: string;
  resources: string;
  origins: string;
  payment?: boolean;
}

/** Grants a token through the "Mint token" form and returns what the agent presents: the secret the panel shows once. */
export async function mintThroughUi(panel: Page, grant: UiGrant): Promise<string> {
  return (await mintThroughUiWithId(panel, grant)).secret;
}

/** The same, with the token's public id (how the panel, the records and revocation name it), read back from the panel. */
export async function mintThroughUiWithId(panel: Page, grant: UiGrant): Promise<{ token_id: string; secret: string }> {
  await showView(panel, 'Tokens');
  const form = panel.getByRole('form', { name: 'Grant a token' });
  await form.getByLabel('Agent').fill(grant.agent ?? 'agent:copilot');
  await form.getByLabel('Scopes').fill(grant.scopes);
  await form.getByLabel('Resources').fill(grant.resources);
  await form.getByLabel('Sites').fill(grant.origins);
  if (grant.payment) await form.getByLabel(/May touch payment/).check();
  await form.getByRole('button', { name: 'Mint token' }).click();
  const status = form.getByRole('status');
  await expect(status).toContainText(/Minted tok_/);
  const token_id = /Minted (tok_[A-Za-z0-9_-]+)/.exec((await status.textContent()) ?? '')![1]!;
  const shown = panel.getByRole('region', { name: `Secret for ${token_id}` });
  await expect(shown).toContainText('Copy it now, it will not be shown again');
  const secret = await shown.getByLabel('Token secret').inputValue();
  return { token_id, secret };
}

export interface Submission {
  action: string;
  resource: { type: string; id: string };
  input?: Record<string, unknown>;
  idempotency_key: string;
  rationale?: string;
  preconditions?: Record<string, unknown>;
  approval?: { receipt_id: string };
}

/**
 * Submits an action as the co-pilot from the panel page (the only context allowed to). It waits
 * for approval, so the reply is parked on `window` and collected with `submissionResult`.
 */
export async function submitAsCopilot(panel: Page, tabId: number, token: string, request: Submission, slot = 'default'): Promise<void> {
  await panel.evaluate(
    ({ tabId, token, request, slot }) => {
      const w = window as unknown as { __submissions?: Record<string, Promise<unknown>> };
      w.__submissions ??= {};
      w.__submissions[slot] = chrome.runtime.sendMessage({ type: 'agent/submit', agent_id: 'agent:copilot', token, tabId, request });
    },
    { tabId, token, request, slot },
  );
}

export async function submissionResult(panel: Page, slot = 'default'): Promise<{ ok: boolean; data?: { result: Record<string, unknown> }; error?: unknown }> {
  return panel.evaluate((slot) => (window as unknown as { __submissions: Record<string, Promise<never>> }).__submissions[slot]!, slot);
}

/** Submits and waits for the reply at once (for actions that need no approval or are refused). */
export async function submitNow(panel: Page, tabId: number, token: string, request: Submission) {
  await submitAsCopilot(panel, tabId, token, request, request.idempotency_key);
  return submissionResult(panel, request.idempotency_key);
}

/** Reads the service worker's own records (IndexedDB `steward`), never the panel's rendering. */
export async function swRecords(sw: Worker, store: 'receipts' | 'approvals' | 'tokens' | 'audit' | 'journal' | 'journal_actions' | 'idempotency'): Promise<Array<Record<string, unknown>>> {
  return sw.evaluate(
    (store) =>
      new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
        const open = indexedDB.open('steward');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction(store).objectStore(store).getAll();
          req.onsuccess = () => (resolve(req.result as Array<Record<string, unknown>>), open.result.close());
          req.onerror = () => reject(req.error);
        };
      }),
    store,
  );
}

export const cancelOrder = (key: string, id = SHOP_ORDER): Submission => ({
  action: 'orders.cancel',
  resource: { type: 'order', id },
  input: { reason: 'ordered_by_mistake' },
  idempotency_key: key,
  rationale: 'The person said they ordered this by mistake.',
});

export interface PanelFixtures {
  steward: StewardBrowser;
  sites: { urls: { shop: string; clinic: string } };
  openPanel: (page: Page) => Promise<Page>;
  tabIdOf: (page: Page) => Promise<number>;
}

/**
 * The shop's order page, the panel pinned to it, and a token minted through the panel's form (by
 * default: to cancel ORD-1024): `token` is its secret (what the agent presents), `token_id` its public id.
 */
export async function shopWithToken(fx: PanelFixtures, grant: { scopes?: string; resources?: string; payment?: boolean } = {}) {
  const page = await fx.steward.context.newPage();
  await page.goto(`${fx.sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await fx.openPanel(page);
  const tabId = await fx.tabIdOf(page);
  const { token_id, secret: token } = await mintThroughUiWithId(panel, {
    scopes: grant.scopes ?? 'orders:read orders:cancel',
    resources: grant.resources ?? `order:${SHOP_ORDER}`,
    origins: new URL(fx.sites.urls.shop).origin,
    ...(grant.payment ? { payment: true } : {}),
  });
  return { page, panel, tabId, token, token_id };
}

/** The ObservedState the service worker fuses for a tab, asked for as the side panel asks (`panel/observe-tab`). */
export interface ObservedReply {
  state: { state?: string; evidence: string[]; conflicts: string[]; confidence: number; facts?: Array<{ name: string; sources: string[] }> } | null;
  error?: string;
}
export async function observeViaPanel(panel: Page, tabId: number): Promise<ObservedReply> {
  const reply = (await panel.evaluate((tabId) => chrome.runtime.sendMessage({ type: 'panel/observe-tab', tabId }), tabId)) as { ok: boolean; data: ObservedReply };
  expect(reply.ok).toBe(true);
  return reply.data;
}
