import { startScriptedModel } from '../../sites/model/scripted-server.ts';
import { cancelReply, cancelledReply, configureModel, startGoal } from '../harness/copilot-panel-helpers.ts';
import { clickStewardButton, tabIdOfAnyPage } from '../harness/browser.ts';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, cancelOrder, mintThroughUi, mintThroughUiWithId, showView, submitAsCopilot, submitNow } from '../harness/panel-helpers.ts';

/**
 * A screenshot of every view, light and dark, at a side panel's width, with real state behind it
 * (a pending card, tokens, history). Saved under test-results/screenshots/ (Playwright's output folder, gitignored) for a person
 * to look at; the test itself checks that each view rendered its content.
 */
test('screenshots of each view, light and dark', async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  await panel.setViewportSize({ width: 360, height: 760 });
  const tabId = await tabIdOf(page);
  const origin = new URL(sites.urls.shop).origin;

  const token = await mintThroughUi(panel, { scopes: 'orders:read orders:cancel', resources: 'order:*', origins: origin });
  const old = await mintThroughUiWithId(panel, { scopes: 'orders:pay', resources: `order:${SHOP_ORDER}`, origins: origin, payment: true });
  await panel
    .getByRole('article', { name: new RegExp(`^${old.token_id}`) })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await panel.getByRole('button', { name: 'Yes, revoke' }).click();
  await submitNow(panel, tabId, old.secret, { action: 'orders.pay', resource: { type: 'order', id: SHOP_ORDER }, idempotency_key: 'shot-pay' });
  await submitAsCopilot(panel, tabId, token, { ...cancelOrder('shot-cancel'), rationale: 'You asked me to cancel the coffee order you placed by mistake.' });

  const views: Array<[string, string]> = [
    ['Approvals', `Cancel order ${SHOP_ORDER} on `],
    ['Activity', 'Verify chain'],
    ['Tokens', 'Grant a token'],
    ['This tab', 'What Steward sees'],
    ['Settings', 'Sites Steward may observe'],
  ];
  for (const scheme of ['light', 'dark'] as const) {
    await panel.emulateMedia({ colorScheme: scheme });
    for (const [view, landmark] of views) {
      await showView(panel, view);
      await expect(panel.getByRole('tabpanel', { name: view })).toContainText(landmark);
      if (view === 'Approvals') await expect(panel.getByRole('article', { name: landmark })).toBeVisible();
      if (view === 'Activity') {
        await panel.getByRole('list', { name: 'Activity log' }).getByRole('button').first().click();
        await panel.getByRole('button', { name: 'Verify chain' }).click();
        await expect(panel.getByText(/^Chain valid/)).toBeVisible();
      }
      if (view === 'This tab') await expect(panel.getByRole('region', { name: 'What Steward sees' })).toContainText('awaiting payment');
      const file = `test-results/screenshots/panel-${view.toLowerCase().replace(/\s+/g, '-')}-${scheme}.png`;
      await panel.screenshot({ path: file, fullPage: true });
    }
  }
});

test('screenshot of the current tab on a site Steward may not read', async ({ steward, sites }) => {
  // 127.0.0.1 is another origin than the allowed localhost one: an unlisted site.
  const unlisted = sites.urls.shop.replace('localhost', '127.0.0.1');
  const page = await steward.context.newPage();
  await page.goto(`${unlisted}/orders/${SHOP_ORDER}`);
  const tabId = await tabIdOfAnyPage(steward.serviceWorker, page);
  // The person opens Steward from its toolbar button on this tab: Chrome then shows Steward the tab's address.
  await clickStewardButton(steward, page);
  const panel = await steward.context.newPage();
  await panel.goto(`chrome-extension://${steward.extensionId}/src/sidepanel/index.html?tabId=${tabId}&view=tab`);
  await panel.setViewportSize({ width: 360, height: 760 });
  await expect(panel.getByRole('region', { name: 'Site access' })).toContainText(`Steward does not read ${new URL(unlisted).origin}`);
  await expect(panel.getByRole('region', { name: 'What Steward sees' })).toHaveCount(0);
  await panel.screenshot({ path: 'test-results/screenshots/panel-this-tab-unlisted-light.png', fullPage: true });
});

test('screenshots of the Co-pilot view mid-run (approval inline) and after the run, light and dark', async ({ steward, sites, openPanel }) => {
  const model = await startScriptedModel({ replies: [cancelReply, cancelledReply] });
  try {
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
    const panel = await openPanel(page);
    await panel.setViewportSize({ width: 360, height: 760 });
    await configureModel(panel, model.url);
    const run = await startGoal(panel, `cancel order ${SHOP_ORDER}`);
    const card = run.getByRole('article', { name: new RegExp(`^Cancel order ${SHOP_ORDER} on `) });
    await expect(card).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await panel.emulateMedia({ colorScheme: scheme });
      // From the top: the sticky tab bar stays where a person sees it.
      await panel.evaluate(() => window.scrollTo(0, 0));
      await panel.screenshot({ path: `test-results/screenshots/panel-copilot-midrun-${scheme}.png`, fullPage: true });
    }
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(run.getByRole('region', { name: 'Done, verified' })).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await panel.emulateMedia({ colorScheme: scheme });
      // From the top: the sticky tab bar stays where a person sees it.
      await panel.evaluate(() => window.scrollTo(0, 0));
      await panel.screenshot({ path: `test-results/screenshots/panel-copilot-done-${scheme}.png`, fullPage: true });
    }
  } finally {
    await model.stop();
  }
});
