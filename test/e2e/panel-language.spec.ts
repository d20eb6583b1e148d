import { readFileSync } from 'node:fs';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, cancelOrder, submitAsCopilot } from '../harness/panel-helpers.ts';
import { mint } from '../harness/pipeline-helpers.ts';

/** The Vietnamese catalogue, as the panel reads it through chrome.i18n.getMessage. */
const VI = JSON.parse(readFileSync(new URL('../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Record<string, { message: string }>;

// A browser whose UI language is Vietnamese, as Steward's first users have it (--lang=vi: browser.ts says what was measured).
test.use({ uiLanguage: 'vi' });

test('in a Vietnamese browser the approval card speaks Vietnamese: its sentence and its Approve / Deny buttons', async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);

  const token = await mint(panel, { scope: ['orders:read', 'orders:cancel'], resource_scope: `order:${SHOP_ORDER}`, origins: [new URL(sites.urls.shop).origin] });
  await submitAsCopilot(panel, tabId, token, cancelOrder('panel-language-1'));
  await panel.getByRole('tab', { name: new RegExp(`^${VI.tab_approvals!.message}`) }).click();

  const host = new URL(sites.urls.shop).host;
  const card = panel.getByRole('article', { name: `Cancel order ${SHOP_ORDER} trên ${host}, do agent:copilot yêu cầu` });
  await expect(card).toBeVisible();
  await expect(card.getByRole('heading', { level: 3 })).toHaveText(`Cancel order ${SHOP_ORDER} trên ${host}, do agent:copilot yêu cầu`);
  await expect(card.getByRole('button', { name: 'Phê duyệt', exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Từ chối', exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expect(card.getByRole('list', { name: 'Điều cần cân nhắc' })).toContainText(
    'Có thể không hoàn tác được: Bản ánh xạ của Steward cho trang web này đánh dấu thao tác này là có tác động lâu dài.',
  );

  // Deciding works in Vietnamese as in English.
  await card.getByRole('button', { name: 'Từ chối', exact: true }).click();
  await expect(card).toHaveCount(0);
  await expect(panel.getByText(`Đã từ chối: Cancel order ${SHOP_ORDER} trên ${host}, do agent:copilot yêu cầu.`, { exact: true }).first()).toBeVisible();
});
