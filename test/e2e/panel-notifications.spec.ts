import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, cancelOrder, shopWithToken, showView, swRecords } from '../harness/panel-helpers.ts';

/**
 * With no side panel open, a new approval reaches the person as a desktop notification and the
 * toolbar badge; deciding in the panel clears both.
 */
test('an approval waiting while no panel is open raises a notification and the badge; deciding clears them', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = { steward, sites, openPanel, tabIdOf };
  const { page, panel, tabId, token } = await shopWithToken(fx);
  const sw = steward.serviceWorker;
  const notifications = () => sw.evaluate(async () => Object.keys(await chrome.notifications.getAll()));
  const badge = () => sw.evaluate(() => chrome.action.getBadgeText({}));
  expect(await notifications()).toEqual([]);

  // The co-pilot submits, and the person closes the panel before the card is queued.
  await panel.evaluate(({ tabId, token, request }) => void chrome.runtime.sendMessage({ type: 'agent/submit', agent_id: 'agent:copilot', token, tabId, request }), {
    tabId,
    token,
    request: cancelOrder('panel-notify-1'),
  });
  await panel.close();

  await expect.poll(async () => (await swRecords(sw, 'approvals')).length).toBe(1);
  await expect.poll(notifications).toEqual([expect.stringMatching(/^approval:apreq_/)]);
  // The notification is the stored card's own.
  const [id] = await notifications();
  expect(JSON.stringify(await swRecords(sw, 'approvals'))).toContain(id!.slice('approval:'.length));
  await expect.poll(badge).toBe('1');

  // The person opens the panel and denies: the notification goes, the badge empties.
  const again = await openPanel(page);
  await showView(again, 'Approvals');
  await again
    .getByRole('article', { name: new RegExp(`^Cancel order ${SHOP_ORDER} on `) })
    .getByRole('button', { name: 'Deny' })
    .click();
  await expect.poll(notifications).toEqual([]);
  await expect.poll(badge).toBe('');
  expect((await swRecords(sw, 'approvals')).map((r) => r.status)).toEqual(['denied']);
});

test('with a panel open, a new approval goes to the panel, not to a notification', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId, token } = await shopWithToken({ steward, sites, openPanel, tabIdOf });
  await panel.evaluate(({ tabId, token, request }) => void chrome.runtime.sendMessage({ type: 'agent/submit', agent_id: 'agent:copilot', token, tabId, request }), {
    tabId,
    token,
    request: cancelOrder('panel-notify-2'),
  });
  await showView(panel, 'Approvals');
  await expect(panel.getByRole('article', { name: new RegExp(`^Cancel order ${SHOP_ORDER} on `) })).toBeVisible();
  expect(await steward.serviceWorker.evaluate(async () => Object.keys(await chrome.notifications.getAll()))).toEqual([]);
  expect(await steward.serviceWorker.evaluate(() => chrome.action.getBadgeText({}))).toBe('1');
});
