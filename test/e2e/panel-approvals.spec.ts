import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, cancelOrder, shopState, shopWithToken, showView, submissionResult, submitAsCopilot, swRecords } from '../harness/panel-helpers.ts';

/** A card is named by its first line: what, on what, where, for whom. */
const card = (panel: Page) => panel.getByRole('article', { name: new RegExp(`^Cancel order ${SHOP_ORDER} on localhost:\\d+, asked by agent:copilot$`) });

test('approve: the card shows the real action and state; Approve issues a bound receipt and the order is cancelled', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId, token, token_id } = await shopWithToken({ steward, sites, openPanel, tabIdOf });
  // The rationale is the agent's own text: it must show as its claim, as text, never as markup.
  await submitAsCopilot(panel, tabId, token, { ...cancelOrder('panel-approve-1'), rationale: 'Mistake <img src=x onerror="document.title=1"> approve it' });
  await showView(panel, 'Approvals');
  const c = card(panel);
  await expect(c).toBeVisible();
  await expect(panel.getByRole('tab', { name: /^Approvals/ })).toHaveAccessibleName('Approvals (1 waiting)');

  const [pending] = (await swRecords(steward.serviceWorker, 'approvals')).map((r) => r.request as { agent_id: string; origin: string; input_hash: string; state: { state_version: string | number } });
  // The first line says it all in words; the value it sends carries the page's own label.
  await expect(c.getByRole('heading', { level: 3 })).toHaveText(`Cancel order ${SHOP_ORDER} on ${new URL(sites.urls.shop).host}, asked by agent:copilot`);
  await expect(c.getByRole('list', { name: 'What to weigh' })).toContainText('It may not be undoable: Steward’s mapping for this site marks it as having lasting effects.');
  const sends = c.getByRole('definition').filter({ hasText: 'Ordered by mistake' });
  await expect(sends).toBeVisible();
  await expect(sends).toHaveAttribute('title', 'sent as ordered_by_mistake');
  // Each reason once, in words: no "consequential", no codes, no fingerprint before Details.
  const front = await c.innerText();
  expect(front).not.toMatch(/consequential|canvas_total_not_observed|ordered_by_mistake|fp-[0-9a-f]{6}|Confidence/);
  // The rest is one click away, behind "Details".
  const details = c.locator('details');
  await expect(c.getByRole('table', { name: 'Input of orders.cancel' })).toBeHidden();
  await c.getByText('Details', { exact: true }).click();
  await expect(details).toContainText('agent:copilot');
  await expect(details).toContainText(new URL(sites.urls.shop).origin);
  await expect(c.getByRole('table', { name: 'Input of orders.cancel' })).toContainText(/reason\s*ordered_by_mistake/);
  await expect(details).toContainText('awaiting payment');
  await expect(details).toContainText(String(pending!.state.state_version));
  // The shop draws its total on a canvas: the conflict comes with a sentence, not just a code.
  await expect(c.getByRole('list', { name: /^Conflicts in order/ })).toContainText('The page draws the total on a canvas, which Steward could not read.');
  await expect(details).toContainText('It changes something on the site.');
  await expect(c.getByRole('figure')).toContainText('its claim, not checked by Steward');
  await expect(c.getByRole('figure')).toContainText('Mistake <img src=x onerror="document.title=1"> approve it');
  await expect(c.locator('img')).toHaveCount(0);
  await expect(c.getByRole('timer')).toHaveText(/^[0-4]:[0-5]\d$/);

  await c.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(c).toHaveCount(0);
  await expect(panel.getByRole('heading', { name: 'Approvals' })).toBeFocused();

  const reply = await submissionResult(panel);
  expect(reply.ok).toBe(true);
  const result = reply.data!.result as { execution?: { status: string }; resource?: { state?: string } };
  expect(result.execution?.status).toBe('confirmed');
  // The receipt binds exactly what the card showed.
  const receipts = (await swRecords(steward.serviceWorker, 'receipts')).map((r) => r as { mode: string; receipt: Record<string, unknown> });
  expect(receipts).toHaveLength(1);
  expect(receipts[0]!.mode).toBe('exact');
  expect(receipts[0]!.receipt).toMatchObject({
    action: 'orders.cancel',
    resource: { type: 'order', id: SHOP_ORDER },
    input_hash: pending!.input_hash,
    state_version: pending!.state.state_version,
    approved_by: 'user:local',
    agent_id: 'agent:copilot',
    token_id,
  });
  // And the site really did it, once.
  const shop = await shopState(sites.urls.shop);
  expect(shop.counters[SHOP_ORDER]!.cancelled).toBe(1);
  expect(shop.orders.find((o) => o.id === SHOP_ORDER)!.status).toBe('cancelled');
});

test('deny: the agent gets APPROVAL_DENIED and nothing happens on the site', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId, token } = await shopWithToken({ steward, sites, openPanel, tabIdOf });
  const before = await shopState(sites.urls.shop);
  await submitAsCopilot(panel, tabId, token, cancelOrder('panel-deny-1'));
  await showView(panel, 'Approvals');
  await card(panel).getByRole('button', { name: 'Deny' }).click();
  await expect(card(panel)).toHaveCount(0);

  const reply = await submissionResult(panel);
  expect(reply.data!.result).toMatchObject({ error: { code: 'APPROVAL_DENIED', retryable: false } });
  expect(await swRecords(steward.serviceWorker, 'receipts')).toHaveLength(0);
  expect((await swRecords(steward.serviceWorker, 'approvals')).map((r) => r.status)).toEqual(['denied']);
  const after = await shopState(sites.urls.shop);
  expect(after.counters[SHOP_ORDER]).toEqual(before.counters[SHOP_ORDER]);
  expect(after.orders.find((o) => o.id === SHOP_ORDER)!.status).toBe('awaiting_payment');
});

test('keyboard only: Tab reaches Approve, Enter approves, focus moves to the next card, Space denies it', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId, token } = await shopWithToken({ steward, sites, openPanel, tabIdOf });
  const cards = card(panel);
  await submitAsCopilot(panel, tabId, token, cancelOrder('panel-kbd-1'), 'first');
  await showView(panel, 'Approvals');
  await expect(cards).toHaveCount(1);
  await submitAsCopilot(panel, tabId, token, { ...cancelOrder('panel-kbd-2'), input: { reason: 'found_cheaper' } }, 'second');
  await expect(cards).toHaveCount(2);
  await showView(panel, 'Tokens');

  // Keyboard only from here (focus is on the Tokens tab): Home selects the first tab (Co-pilot), the
  // right arrow Approvals, then Tab on to the oldest card's Approve.
  await expect(panel.getByRole('tab', { name: 'Tokens' })).toBeFocused();
  await panel.keyboard.press('Home');
  await expect(panel.getByRole('tab', { name: 'Co-pilot' })).toBeFocused();
  await panel.keyboard.press('ArrowRight');
  await expect(panel.getByRole('tab', { name: /^Approvals/ })).toBeFocused();
  await expect(cards.first()).toContainText('Ordered by mistake');
  const approve = cards.first().getByRole('button', { name: 'Approve', exact: true });
  for (let i = 0; i < 10 && !(await approve.evaluate((el) => el === document.activeElement)); i++) await panel.keyboard.press('Tab');
  await expect(approve).toBeFocused();
  await panel.keyboard.press('Enter');
  await expect(cards).toHaveCount(1);
  // Focus lands on the card that took its place (named by its heading), ready for Tab.
  await expect(cards.first()).toBeFocused();
  await expect(cards.first()).toContainText('found_cheaper');
  const deny = cards.first().getByRole('button', { name: 'Deny' });
  for (let i = 0; i < 6 && !(await deny.evaluate((el) => el === document.activeElement)); i++) await panel.keyboard.press('Tab');
  await expect(deny).toBeFocused();
  await panel.keyboard.press('Space');
  await expect(cards).toHaveCount(0);
  await expect(panel.getByRole('heading', { name: 'Approvals' })).toBeFocused();

  expect((await submissionResult(panel, 'first')).data!.result).toMatchObject({ execution: { status: 'confirmed' } });
  expect((await submissionResult(panel, 'second')).data!.result).toMatchObject({ error: { code: 'APPROVAL_DENIED' } });
  const shop = await shopState(sites.urls.shop);
  expect(shop.counters[SHOP_ORDER]!.cancelled).toBe(1);
  expect(shop.orders.find((o) => o.id === SHOP_ORDER)!.status).toBe('cancelled');
});

test('in a 360 × 900 panel the decision fits the first 600 px; Enter on the focused card approves, Escape denies, and each is announced', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId, token } = await shopWithToken({ steward, sites, openPanel, tabIdOf });
  await panel.setViewportSize({ width: 360, height: 900 });
  const cards = card(panel);
  await submitAsCopilot(panel, tabId, token, cancelOrder('panel-fit-1'), 'first');
  await showView(panel, 'Approvals');
  await expect(cards).toHaveCount(1);
  await submitAsCopilot(panel, tabId, token, { ...cancelOrder('panel-fit-2'), input: { reason: 'found_cheaper' } }, 'second');
  await expect(cards).toHaveCount(2);

  // The first card's sentence, its facts and both buttons sit in the first 600 px, unscrolled.
  const first = cards.first();
  await expect(first).toContainText('Ordered by mistake');
  const fold = await panel.evaluate(() => window.scrollY);
  expect(fold).toBe(0);
  for (const part of [
    first.getByRole('heading', { level: 3 }),
    first.getByRole('list', { name: 'What to weigh' }),
    first.getByRole('button', { name: 'Approve', exact: true }),
    first.getByRole('button', { name: 'Deny' }),
  ]) {
    const box = (await part.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(600);
  }
  // A screen reader hears the card's sentence as its name and is told the keys.
  await expect(first).toHaveAttribute('aria-keyshortcuts', 'Enter Escape');
  await expect(first).toHaveAccessibleDescription(/Enter approves, Escape denies\.$/);

  // Tab from the tab bar reaches the oldest card itself first, then its Approve.
  await panel.getByRole('tab', { name: /^Approvals/ }).focus();
  for (let i = 0; i < 6 && !(await first.evaluate((el) => el === document.activeElement)); i++) await panel.keyboard.press('Tab');
  await expect(first).toBeFocused();
  await panel.keyboard.press('Tab');
  await expect(first.getByRole('button', { name: 'Approve', exact: true })).toBeFocused();
  await panel.keyboard.press('Shift+Tab');
  await expect(first).toBeFocused();
  // Enter on the card approves it; the status region says what was approved, in the card's words.
  await panel.keyboard.press('Enter');
  await expect(cards).toHaveCount(1);
  const status = panel.getByRole('status').filter({ hasText: /^Approved: / });
  await expect(status).toHaveText(new RegExp(`^Approved: Cancel order ${SHOP_ORDER} on localhost:\\d+, asked by agent:copilot\\.$`));
  // Focus moves to the next card; Escape there denies it.
  await expect(cards.first()).toBeFocused();
  await expect(cards.first()).toContainText('found_cheaper');
  await panel.keyboard.press('Escape');
  await expect(cards).toHaveCount(0);
  await expect(panel.getByRole('status').filter({ hasText: /^Denied: / })).toHaveText(new RegExp(`^Denied: Cancel order ${SHOP_ORDER} on `));
  await expect(panel.getByRole('heading', { name: 'Approvals' })).toBeFocused();

  expect((await submissionResult(panel, 'first')).data!.result).toMatchObject({ execution: { status: 'confirmed' } });
  expect((await submissionResult(panel, 'second')).data!.result).toMatchObject({ error: { code: 'APPROVAL_DENIED' } });
  const shop = await shopState(sites.urls.shop);
  expect(shop.counters[SHOP_ORDER]!.cancelled).toBe(1);
});

test.describe('with the panel on a fake clock', () => {
  // Playwright's clock is installed for the whole browser context, never taken out: a browser of its own.
  test.use({ freshBrowser: true });

  test('an expired card cannot be approved, and says so', async ({ steward, sites, openPanel, tabIdOf }) => {
    const { panel, tabId, token } = await shopWithToken({ steward, sites, openPanel, tabIdOf });
    await panel.clock.install();
    await panel.reload();
    await submitAsCopilot(panel, tabId, token, { ...cancelOrder('panel-expire-1') }, 'expire');
    await showView(panel, 'Approvals');
    const c = card(panel);
    await expect(c.getByRole('button', { name: 'Approve', exact: true })).toBeEnabled();
    // The card's own expiry, not a guess: jump the panel's clock past it.
    const expiresAt = ((await swRecords(steward.serviceWorker, 'approvals'))[0]!.request as { expires_at: string }).expires_at;
    await panel.clock.setSystemTime(Date.parse(expiresAt) + 1000);
    await panel.clock.runFor(2000);
    await expect(c).toContainText('Expired: the agent was refused and must ask again.');
    for (const name of ['Approve', 'Deny']) await expect(c.getByRole('button', { name, exact: true })).toBeDisabled();
    await expect(c.getByRole('button', { name: /^Approve for/ })).toHaveCount(0);
  });
});

test('an action that runs inside the page is offered no window: the card says why, and the panel’s window request is refused', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId, token } = await shopWithToken({ steward, sites, openPanel, tabIdOf }, { scopes: 'orders:read orders:add_item' });
  const addItem = (key: string, quantity: number) => ({ action: 'orders.add_item', resource: { type: 'order', id: SHOP_ORDER }, input: { sku: 'MUG-STN-BL', quantity }, idempotency_key: key });

  await submitAsCopilot(panel, tabId, token, addItem('panel-window-1', 1), 'w1');
  await showView(panel, 'Approvals');
  const c = panel.getByRole('article', { name: new RegExp(`^Add item for order ${SHOP_ORDER} on `) });
  await expect(c).toContainText('No “approve for a period” here: only actions sent to a site’s agent contract can be approved for a period');
  await expect(c.getByRole('button', { name: /^Approve for/ })).toHaveCount(0);
  // What the window button would send is refused by the service worker too; the card stays.
  const [pending] = (await swRecords(steward.serviceWorker, 'approvals')).map((r) => r.request as { request_id: string; input_hash: string; state: { state_version: string | number } });
  const windowed = (await panel.evaluate(
    (d) =>
      chrome.runtime.sendMessage({
        type: 'panel/approval-decide',
        decision: { request_id: d.request_id, decision: 'approve', decided_by: 'user:local', decided_at: new Date().toISOString(), input_hash: d.input_hash, state_version: d.state.state_version },
        window_ms: 15 * 60_000,
      }),
    pending!,
  )) as { ok: boolean };
  expect(windowed.ok).toBe(false);
  await c.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(c).toHaveCount(0);
  expect((await submissionResult(panel, 'w1')).data!.result).toMatchObject({ execution: { status: 'confirmed' } });
  expect(((await swRecords(steward.serviceWorker, 'receipts')) as Array<{ mode: string }>).map((r) => r.mode)).toEqual(['exact']);
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]!.items_added).toBe(1);
});

test('a payment is approved one at a time: no time window is offered, and Deny leaves the order unpaid', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId, token } = await shopWithToken({ steward, sites, openPanel, tabIdOf }, { scopes: 'orders:pay', payment: true });
  await submitAsCopilot(panel, tabId, token, { action: 'orders.pay', resource: { type: 'order', id: SHOP_ORDER }, idempotency_key: 'panel-pay-1' });
  await showView(panel, 'Approvals');
  const c = panel.getByRole('article', { name: new RegExp(`^Pay for order ${SHOP_ORDER} on `) });
  await expect(c.getByRole('list', { name: 'What to weigh' })).toContainText('It moves money.');
  await expect(c.getByRole('button', { name: /^Approve for/ })).toHaveCount(0);
  await expect(c).toContainText('No “approve for a period” here: it is approved one at a time: it touches money.');
  await c.getByRole('button', { name: 'Deny' }).click();
  expect((await submissionResult(panel)).data!.result).toMatchObject({ error: { code: 'APPROVAL_DENIED' } });
  const shop = await shopState(sites.urls.shop);
  expect(shop.counters[SHOP_ORDER]!.paid).toBe(0);
  expect(shop.orders.find((o) => o.id === SHOP_ORDER)!.status).toBe('awaiting_payment');
});

test('a legacy click card names the element it would press, as the page shows it now', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId, token } = await shopWithToken({ steward, sites, openPanel, tabIdOf }, { scopes: 'dom:click' });
  const observed = (await panel.evaluate((tabId) => chrome.runtime.sendMessage({ type: 'panel/observe-tab', tabId }), tabId)) as {
    data: { state: { elements: Array<{ ref: string; role: string; name: string }> } };
  };
  const button = observed.data.state.elements.find((e) => e.role === 'button' && e.name === 'Cancel order')!;
  expect(button).toBeDefined();
  await submitAsCopilot(panel, tabId, token, { action: 'dom.click', resource: { type: 'order', id: SHOP_ORDER }, input: { ref: button.ref }, idempotency_key: 'panel-click-1' });
  await showView(panel, 'Approvals');
  const c = panel.getByRole('article', { name: new RegExp(`^Press button “Cancel order” \\(order ${SHOP_ORDER}\\) on `) });
  await expect(c).toBeVisible();
  await c.getByText('Details', { exact: true }).click();
  const input = c.getByRole('table', { name: 'Input of dom.click' });
  await expect(input.getByRole('row', { name: /ref/ })).toContainText(`${button.ref}button “Cancel order”`);
  await panel.getByRole('button', { name: 'Deny' }).click();
  expect((await submissionResult(panel)).data!.result).toMatchObject({ error: { code: 'APPROVAL_DENIED' } });
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]!.cancelled).toBe(0);
});
