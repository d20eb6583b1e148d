import { test, expect } from '../harness/fixtures.ts';
import { observeViaPanel as observe } from '../harness/panel-helpers.ts';

test('the JSON the page fetched is evidence, and a page that contradicts its own API is a conflict', async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/ORD-1024`);
  await expect(page.locator('#live-status')).toContainText(/awaiting payment/i);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);

  const agreeing = await observe(panel, tabId);
  expect(agreeing.state?.state).toBe('awaiting_payment');
  expect(agreeing.state?.evidence).toContain('network');
  expect(agreeing.state?.conflicts).not.toContain('dom_state_disagrees_with_network');

  // The API now says "shipped" while the page's HTML still says "awaiting payment".
  await fetch(new URL('/__demo/orders/ORD-1024/api-override', sites.urls.shop), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'shipped' }),
  });
  await page.reload();
  await expect(page.locator('#live-status')).toContainText(/shipped/i);
  await expect.poll(async () => (await observe(panel, tabId)).state?.conflicts ?? []).toContain('dom_state_disagrees_with_network');
  const disagreeing = await observe(panel, tabId);
  expect(disagreeing.state?.evidence).toContain('network');
});
