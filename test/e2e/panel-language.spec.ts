import { readFileSync } from 'node:fs';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, cancelOrder, showView, submitAsCopilot, swRecords } from '../harness/panel-helpers.ts';
import { mint, mintWithId } from '../harness/pipeline-helpers.ts';

/** The Vietnamese catalogue, as the panel reads it through chrome.i18n.getMessage. */
const VI = JSON.parse(readFileSync(new URL('../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Record<string, { message: string }>;
/** A Vietnamese message, or the test fails on a key the catalogue lacks. */
const vi = (key: string): string => {
  const entry = VI[key];
  if (!entry) throw new Error(`the Vietnamese catalogue has no ${key}`);
  return entry.message;
};
/** A Vietnamese message with its placeholders filled in order, as chrome.i18n.getMessage fills them. */
function viSays(key: string, ...substitutions: string[]): string {
  const entry = (VI as Record<string, { message: string; placeholders?: Record<string, { content: string }> }>)[key];
  if (!entry) throw new Error(`no Vietnamese message ${key}`);
  return entry.message.replace(/\$([A-Za-z0-9_]+)\$/g, (_, name: string) =>
    (entry.placeholders?.[name.toLowerCase()]?.content ?? '').replace(/\$(\d)/g, (_m, d: string) => substitutions[Number(d) - 1] ?? ''),
  );
}

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

test('in a Vietnamese browser the Tokens and Activity views speak Vietnamese: headings, a token’s card, the mint form and a verified chain', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  const { token_id: tokenId } = await mintWithId(panel, { scope: ['orders:read'], resource_scope: `order:${SHOP_ORDER}`, origins: [new URL(sites.urls.shop).origin] });

  await panel.getByRole('tab', { name: new RegExp(`^${vi('tab_tokens')}`) }).click();
  await expect(panel.getByRole('heading', { level: 2, name: vi('tokens_heading') })).toBeVisible();
  // The token's card: its status and its labels in Vietnamese, its id and agent as they are.
  const card = panel.getByRole('article', { name: `${tokenId} ${vi('tokens_status_active')}` });
  await expect(card).toBeVisible();
  await expect(card).toContainText(vi('tokens_scope'));
  await expect(card).toContainText(vi('tokens_payment_not_allowed'));
  await expect(card.getByRole('button', { name: vi('tokens_revoke'), exact: true })).toBeVisible();
  const form = panel.getByRole('form', { name: vi('tokens_mint_heading') });
  await expect(form.getByLabel(vi('tokens_mint_agent'), { exact: true })).toHaveValue('agent:copilot');
  await expect(form.getByRole('button', { name: vi('tokens_mint_submit') })).toBeVisible();
  await expect(panel.getByText('Grant a token', { exact: true })).toHaveCount(0);

  await panel.getByRole('tab', { name: new RegExp(`^${vi('tab_activity')}`) }).click();
  await expect(panel.getByRole('heading', { level: 2, name: vi('activity_heading') })).toBeVisible();
  // The mint's own entry, named by its kind in Vietnamese.
  const log = panel.getByRole('list', { name: vi('activity_log_label') });
  await expect(log.getByRole('button', { name: new RegExp(`^${vi('activity_kind_token')} ${tokenId}`) })).toBeVisible();
  await panel.getByRole('button', { name: vi('activity_verify_chain'), exact: true }).click();
  const count = (await swRecords(steward.serviceWorker, 'audit')).length;
  await expect(panel.getByRole('status').filter({ hasText: vi('activity_verify_ok_chain').split(':')[0]! })).toHaveText(viSays('activity_verify_ok_chain', String(count)));
});

test('in a Vietnamese browser the page’s tools, the shop’s contract form and the co-pilot’s settings speak Vietnamese', async ({ steward, sites, openPanel }) => {
  // This tab on the clinic: its WebMCP tools, and a read-only one run from the panel.
  const clinic = await steward.context.newPage();
  await clinic.goto(sites.urls.clinic);
  const panel = await openPanel(clinic);
  await showView(panel, VI.tab_this_tab!.message);
  await expect(panel.getByRole('heading', { name: VI.tools_heading!.message })).toBeVisible();
  const listDoctors = panel.getByRole('article', { name: 'list_doctors', exact: true });
  await expect(listDoctors.getByLabel(VI.tools_annotations!.message, { exact: true })).toContainText(VI.risk_read_only!.message);
  await listDoctors.getByRole('button', { name: VI.tools_run!.message, exact: true }).click();
  await expect(listDoctors.getByRole('region', { name: viSays('tools_result_of', 'list_doctors') })).toBeVisible();

  // This tab on the shop: the consent form to its agent contract, its lifetimes in Vietnamese.
  const shop = await steward.context.newPage();
  await shop.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const shopPanel = await openPanel(shop);
  await showView(shopPanel, VI.tab_this_tab!.message);
  const form = shopPanel.getByTestId('contract-consent');
  await expect(form).toContainText(viSays('contract_signed_in', 'Larkspur Home Goods'));
  await expect(form.getByTestId('contract-connect')).toHaveText(viSays('contract_connect_to', 'Larkspur Home Goods'));
  await expect(form.getByTestId('contract-expiry').locator('option')).toHaveText([viSays('time_hours_one', '1'), viSays('time_days_one', '1'), viSays('time_days_other', '7')]);

  // Settings: the co-pilot's fields.
  await showView(shopPanel, VI.tab_settings!.message);
  const copilot = shopPanel.getByRole('group', { name: VI.copilot_settings_link!.message });
  await expect(copilot.getByLabel(VI.copilot_provider!.message, { exact: true })).toBeVisible();
  await expect(copilot.getByLabel(VI.copilot_model_name!.message, { exact: true })).toBeVisible();
  await expect(copilot.getByRole('button', { name: VI.copilot_test_connection!.message, exact: true })).toBeVisible();
  await expect(copilot.getByText('Test connection', { exact: true })).toHaveCount(0);
});
