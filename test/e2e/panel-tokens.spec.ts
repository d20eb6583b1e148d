import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, cancelOrder, mintThroughUiWithId, shopState, shopWithToken, showView, submitNow, swRecords } from '../harness/panel-helpers.ts';

test('the mint form explains bad input and mints nothing until it is right', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  await showView(panel, 'Tokens');
  const form = panel.getByRole('form', { name: 'Grant a token' });
  // The current site is proposed.
  await expect(form.getByLabel('Sites')).toHaveValue(new URL(sites.urls.shop).origin);

  await form.getByLabel('Agent').fill('copilot');
  await form.getByLabel('Scopes').fill('orders.cancel');
  await form.getByLabel('Resources').fill('ORD-1024');
  await form.getByLabel('Sites').fill('localhost');
  await form.getByRole('button', { name: 'Mint token' }).click();
  await expect(form.getByLabel('Agent')).toHaveAccessibleDescription(/agent:<name>/);
  await expect(form.getByLabel('Scopes')).toHaveAccessibleDescription(/“orders.cancel” must be "<namespace>:<verb>"/);
  await expect(form.getByLabel('Resources')).toHaveAccessibleDescription(/order:ORD-1024/);
  await expect(form.getByLabel('Sites')).toHaveAccessibleDescription(/“localhost”/);
  await expect(form.getByLabel('Agent')).toBeFocused();
  expect(await swRecords(steward.serviceWorker, 'tokens')).toHaveLength(0);

  const { token_id: id, secret } = await mintThroughUiWithId(panel, { scopes: 'orders:read orders:cancel', resources: 'order:*', origins: new URL(sites.urls.shop).origin, payment: true });
  const stored = (await swRecords(steward.serviceWorker, 'tokens')) as Array<{ token_id: string; scope: string[]; resource_scope: string; payment: boolean; expires_at: string; issued_at: string }>;
  expect(stored.map((t) => t.token_id)).toEqual([id]);
  // The secret was shown once in the panel; the service worker keeps only its hash.
  expect(secret).toMatch(/^stw_secret_/);
  expect(JSON.stringify(stored)).not.toContain(secret);
  expect(stored[0]).toMatchObject({ scope: ['orders:read', 'orders:cancel'], resource_scope: 'order:*', payment: true });
  // Lifetime defaults to the setting (1 hour).
  expect(Date.parse(stored[0]!.expires_at) - Date.parse(stored[0]!.issued_at)).toBe(3_600_000);

  // Listed under its agent with what it allows.
  const agent = panel.getByRole('region', { name: 'agent:copilot' });
  const tokenCard = agent.getByRole('article', { name: new RegExp(`^${id} active`) });
  await expect(tokenCard).toContainText('orders:read');
  await expect(tokenCard).toContainText('orders:cancel');
  await expect(tokenCard).toContainText('order:*');
  await expect(tokenCard).toContainText(/Payment\s*allowed/);
  await expect(tokenCard).toContainText(/Used\s*0 times/);
});

test('revoke: a confirm step, then the next action with that token is refused with TOKEN_INVALID', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId, token, token_id: id } = await shopWithToken({ steward, sites, openPanel, tabIdOf });
  const tokenCard = panel.getByRole('article', { name: new RegExp(`^${id}`) });

  await tokenCard.getByRole('button', { name: 'Revoke' }).click();
  // "Keep it" backs out and nothing is revoked.
  await expect(tokenCard.getByRole('button', { name: 'Yes, revoke' })).toBeFocused();
  await tokenCard.getByRole('button', { name: 'Keep it' }).click();
  await expect(tokenCard.getByRole('button', { name: 'Revoke' })).toBeFocused();
  expect(((await swRecords(steward.serviceWorker, 'tokens'))[0] as { revoked_at?: string }).revoked_at).toBeUndefined();

  await tokenCard.getByRole('button', { name: 'Revoke' }).click();
  await tokenCard.getByRole('button', { name: 'Yes, revoke' }).click();
  // Revoked tokens leave the active list; "show all" brings them back, marked.
  await expect(tokenCard).toHaveCount(0);
  await panel.getByLabel(/Show expired and revoked tokens/).check();
  await expect(panel.getByRole('article', { name: `${id} revoked` })).toBeVisible();
  expect(((await swRecords(steward.serviceWorker, 'tokens'))[0] as { revoked_at?: string }).revoked_at).toBeTruthy();

  const before = await shopState(sites.urls.shop);
  const reply = await submitNow(panel, tabId, token, cancelOrder('panel-revoked-1'));
  expect(reply.data!.result).toMatchObject({ error: { code: 'TOKEN_INVALID', retryable: false } });
  expect(await swRecords(steward.serviceWorker, 'approvals')).toHaveLength(0);
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]).toEqual(before.counters[SHOP_ORDER]);
});
