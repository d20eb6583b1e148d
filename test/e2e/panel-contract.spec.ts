import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, cancelOrder, mintThroughUiWithId, shopState, showView, submissionResult, submitAsCopilot, swRecords } from '../harness/panel-helpers.ts';

/**
 * The side panel's part of the contract path: the person's consent to the shop's token grant, the
 * connection it shows, disconnecting (the shop revokes the token), and the path each action ran on.
 */

const PATH_WORDS: Record<string, string> = { site_contract: 'site contract', webmcp: 'WebMCP tool', adapter: 'adapter', legacy_inference: 'page controls' };

interface ShopToken {
  token_id: string;
  [field: string]: unknown;
}

/** The shop's own record of the tokens it issued (`/__demo/state` → agent.tokens). */
async function shopTokens(shopUrl: string): Promise<ShopToken[]> {
  const state = (await (await fetch(new URL('/__demo/state', shopUrl))).json()) as { agent?: { tokens?: ShopToken[] } };
  return state.agent?.tokens ?? [];
}
const isRevoked = (t: ShopToken | undefined) => t !== undefined && (t.revoked === true || typeof t.revoked_at === 'string' || t.status === 'revoked');

/** The grant Steward holds for the tab's site, asked for as the panel asks. */
async function heldGrant(panel: Page, tabId: number): Promise<{ token_id: string } | undefined> {
  const reply = (await panel.evaluate((tabId) => chrome.runtime.sendMessage({ type: 'panel/contract-site', tabId }), tabId)) as {
    ok: boolean;
    data: { site: { connection: { status: string; token_id?: string } } | null };
  };
  expect(reply.ok).toBe(true);
  const c = reply.data.site?.connection;
  return c?.status === 'connected' ? { token_id: c.token_id! } : undefined;
}

async function shopTab(fx: { steward: { context: { newPage(): Promise<Page> } }; sites: { urls: { shop: string } }; openPanel: (p: Page) => Promise<Page>; tabIdOf: (p: Page) => Promise<number> }) {
  const page = await fx.steward.context.newPage();
  // Visiting the shop's pages signs the demo customer in (its session cookie): the grant needs it.
  await page.goto(`${fx.sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await fx.openPanel(page);
  const tabId = await fx.tabIdOf(page);
  await showView(panel, 'This tab');
  return { page, panel, tabId };
}

test('the person connects Steward to the shop’s contract, sees the grant, and disconnects: the shop revokes the token', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = { steward, sites, openPanel, tabIdOf };
  const { page, panel, tabId } = await shopTab(fx);
  // A second panel on the same tab follows along from the worker's pushes alone.
  const other = await openPanel(page);
  await showView(other, 'This tab');

  const block = panel.getByTestId('contract-site');
  await expect(block).toContainText('Larkspur');
  await expect(block).toContainText('This site offers an agent contract');
  const form = block.getByTestId('contract-consent');
  await expect(form).toContainText('bound to Steward’s own key');
  await expect(form).toContainText('Steward still asks you before every consequential action');

  // Defaults: reading and non-payment scopes ticked, payment scopes and the payment flag not, each type whole, one hour.
  const scopes = form.getByTestId('contract-scope');
  const offered = await scopes.evaluateAll((boxes) => boxes.map((b) => [(b as HTMLInputElement).value, (b as HTMLInputElement).checked] as const));
  expect(offered).toEqual(expect.arrayContaining([['orders:read', true] as const, ['orders:cancel', true] as const]));
  // Paying, and the wildcard that includes it, only when the person ticks them.
  for (const [scope, checked] of offered) if (/:(?:pay|\*)$/.test(scope)) expect(checked, scope).toBe(false);
  expect(offered.map(([scope]) => scope)).toEqual(expect.arrayContaining(['orders:pay', 'orders:*']));
  await expect(form.getByTestId('contract-resource-scope')).toHaveValue('order:*');
  await expect(form.getByTestId('contract-payment')).not.toBeChecked();
  await expect(form.getByTestId('contract-expiry')).toHaveValue('3600');
  await expect(form.getByTestId('contract-expiry').locator('option')).toHaveText(['1 hour', '1 day', '7 days']);
  expect(await shopTokens(sites.urls.shop)).toEqual([]);

  const connect = form.getByTestId('contract-connect');
  await expect(connect).toHaveText('Connect Steward to Larkspur Home Goods');
  await connect.click();
  const connected = block.getByTestId('contract-connected');
  await expect(connected).toContainText('Connected as Jordan Lee');
  await expect(connected).toContainText('orders:cancel');
  await expect(connected).toContainText(/Resources\s*order:\*/);
  await expect(connected).toContainText(/Payment\s*no/);
  await expect(block.getByTestId('contract-consent')).toHaveCount(0);
  await expect(block.getByTestId('contract-error')).toHaveCount(0);
  await expect(other.getByTestId('contract-connected')).toContainText('Connected as Jordan Lee');
  // The view re-observed: the tab's state now comes from the site's contract.
  await expect(panel.getByRole('region', { name: 'What Steward sees' })).toContainText(/Read via\s*contract/);

  // The shop issued exactly that token, and it is live.
  const grant = await heldGrant(panel, tabId);
  expect(grant).toBeDefined();
  const issued = await shopTokens(sites.urls.shop);
  expect(issued.map((t) => t.token_id)).toEqual([grant!.token_id]);
  expect(isRevoked(issued[0])).toBe(false);

  // Settings lists the site with the same grant.
  await showView(panel, 'Settings');
  const listed = panel.getByRole('list', { name: 'Connected sites' }).getByRole('listitem');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText('Larkspur');
  await expect(listed).toContainText('Connected as Jordan Lee');

  await showView(panel, 'This tab');
  await block.getByTestId('contract-disconnect').click();
  await expect(block.getByTestId('contract-consent')).toBeVisible();
  await expect(block.getByTestId('contract-connected')).toHaveCount(0);
  await expect(other.getByTestId('contract-consent')).toBeVisible();
  expect(await heldGrant(panel, tabId)).toBeUndefined();
  await expect.poll(async () => isRevoked((await shopTokens(sites.urls.shop)).find((t) => t.token_id === grant!.token_id))).toBe(true);
  await expect(panel.getByRole('region', { name: 'What Steward sees' })).not.toContainText(/Read via\s*contract/);
});

test('without the person’s session on the shop, Connect says to sign in first; once signed in it connects, and Settings disconnects', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = { steward, sites, openPanel, tabIdOf };
  const { page, panel } = await shopTab(fx);
  await steward.context.clearCookies();
  const block = panel.getByTestId('contract-site');
  await block.getByTestId('contract-connect').click();
  await expect(block.getByTestId('contract-error')).toContainText(/sign in/i);
  await expect(block.getByTestId('contract-error')).toContainText('Larkspur');
  await expect(block.getByTestId('contract-consent')).toBeVisible();
  expect(await shopTokens(sites.urls.shop)).toEqual([]);

  // Visiting the shop signs the demo customer in again.
  await page.reload();
  await block.getByTestId('contract-connect').click();
  await expect(block.getByTestId('contract-connected')).toContainText('Connected as Jordan Lee');
  await expect(block.getByTestId('contract-error')).toHaveCount(0);

  await showView(panel, 'Settings');
  const listed = panel.getByRole('list', { name: 'Connected sites' }).getByRole('listitem').filter({ hasText: 'Larkspur' });
  await listed.getByTestId('contract-disconnect').click();
  await expect(panel.getByRole('list', { name: 'Connected sites' })).not.toContainText('Connected as Jordan Lee');
  await expect.poll(async () => (await shopTokens(sites.urls.shop)).every(isRevoked)).toBe(true);
  await showView(panel, 'This tab');
  await expect(block.getByTestId('contract-consent')).toBeVisible();
});

/** Cancels the order as the co-pilot, approves it on its card, and reads the path the card and the activity log show. */
async function cancelAndReadPaths(panel: Page, tabId: number, origin: string, key: string) {
  const { secret } = await mintThroughUiWithId(panel, { scopes: 'orders:read orders:cancel', resources: `order:${SHOP_ORDER}`, origins: origin });
  await submitAsCopilot(panel, tabId, secret, cancelOrder(key));
  await showView(panel, 'Approvals');
  const card = panel.getByRole('article', { name: new RegExp(`^Cancel order ${SHOP_ORDER} on `) });
  await expect(card).toBeVisible();
  await card.getByText('Details', { exact: true }).click();
  await expect(card.getByTestId('action-path')).toBeVisible();
  const cardPath = await card.getByTestId('action-path').textContent();
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  const reply = await submissionResult(panel);
  expect(reply.ok).toBe(true);
  await showView(panel, 'Activity');
  const entry = panel
    .getByRole('list', { name: 'Activity log' })
    .getByRole('listitem')
    .filter({ hasText: `orders.cancel on order:${SHOP_ORDER}` });
  await expect(entry.getByTestId('action-path')).toHaveCount(1);
  const loggedPath = await entry.getByTestId('action-path').textContent();
  return { cardPath, loggedPath, result: reply.data!.result };
}

test('an approval card and the activity log show the page path when the shop is not connected', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId } = await shopTab({ steward, sites, openPanel, tabIdOf });
  const { cardPath, loggedPath } = await cancelAndReadPaths(panel, tabId, new URL(sites.urls.shop).origin, 'panel-contract-legacy');
  const [approval] = (await swRecords(steward.serviceWorker, 'approvals')).map((r) => r.request as { via: string });
  expect(approval!.via).not.toBe('site_contract');
  expect(cardPath).toBe(PATH_WORDS[approval!.via]);
  expect(loggedPath).toBe(cardPath);
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]!.cancelled).toBe(1);
});

test('once connected, the same cancel runs on the site’s contract, and the card and the log say so', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId } = await shopTab({ steward, sites, openPanel, tabIdOf });
  await panel.getByTestId('contract-connect').click();
  await expect(panel.getByTestId('contract-connected')).toContainText('Connected as Jordan Lee');
  const { cardPath, loggedPath, result } = await cancelAndReadPaths(panel, tabId, new URL(sites.urls.shop).origin, 'panel-contract-site-call');
  expect(cardPath).toBe('site contract');
  expect(loggedPath).toBe('site contract');
  expect((result as { execution?: { status: string } }).execution?.status).toBe('confirmed');
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]!.cancelled).toBe(1);
});
