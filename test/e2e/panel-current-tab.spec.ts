import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, showView } from '../harness/panel-helpers.ts';

test('shows the live observed state, facts, conflicts explained, and actions with path and risk; Refresh re-observes', async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  // With nothing waiting for approval the panel opens on the co-pilot.
  await expect(panel.getByRole('tab', { name: 'Co-pilot' })).toHaveAttribute('aria-selected', 'true');
  await showView(panel, 'This tab');
  const seen = panel.getByRole('region', { name: 'What Steward sees' });
  await expect(seen).toContainText(`order ${SHOP_ORDER}`);

  // Compare with what the service worker itself observes.
  const reply = (await panel.evaluate((tabId) => chrome.runtime.sendMessage({ type: 'panel/observe-tab', tabId }), tabId)) as {
    data: { state: { state: string; source: string; conflicts: string[]; facts?: Array<{ name: string }> } };
  };
  const observed = reply.data.state;
  expect(observed.state).toBe('awaiting_payment');
  await expect(seen).toContainText('awaiting payment');
  await expect(seen).toContainText(/Read via\s*adapter/);
  expect(observed.conflicts).toContain('canvas_total_not_observed');
  await expect(seen.getByRole('list', { name: `Conflicts in order ${SHOP_ORDER}` })).toContainText('The page draws the total on a canvas');
  expect(observed.facts?.length).toBeGreaterThan(0);
  await expect(seen.getByRole('table', { name: 'Facts' }).getByRole('row')).toHaveCount(observed.facts!.length + 1);

  const actions = seen.getByRole('list', { name: 'Available actions' });
  const pay = actions.getByRole('listitem').filter({ hasText: 'orders.pay' });
  await expect(pay).toContainText('adapter');
  await expect(pay).toContainText('payment');
  await expect(pay).toContainText('needs your approval');
  await expect(actions.getByRole('listitem').filter({ hasText: 'dom.scroll' })).toContainText('legacy');

  // The order changes behind the panel's back; Refresh shows the new state.
  await fetch(new URL(`/__demo/orders/${SHOP_ORDER}`, sites.urls.shop), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'shipped' }) });
  await page.reload();
  await panel.getByRole('button', { name: 'Refresh' }).click();
  await expect(seen).toContainText('shipped');
  await expect(actions.getByRole('listitem').filter({ hasText: 'orders.track' })).toContainText('read-only');
  await expect(actions.getByRole('listitem').filter({ hasText: 'orders.pay' })).toHaveCount(0);
});

test('the current tab view also lists the page’s WebMCP tools', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(sites.urls.clinic);
  const panel = await openPanel(page);
  await showView(panel, 'This tab');
  await expect(panel.getByRole('heading', { name: 'Page tools (WebMCP)' })).toBeVisible();
  await expect(panel.getByRole('article', { name: 'list_doctors', exact: true })).toContainText('read-only');
  await expect(panel.getByRole('region', { name: 'What Steward sees' })).not.toContainText('Observing…');
});
