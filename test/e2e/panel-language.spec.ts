import { readFileSync } from 'node:fs';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, cancelOrder, showView, submitAsCopilot, swRecords } from '../harness/panel-helpers.ts';
import { mint, mintWithId } from '../harness/pipeline-helpers.ts';
import type { Page } from '@playwright/test';
import { startScriptedModel, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { grantInChromeSettings } from '../harness/browser.ts';
import { cancelReply, cancelledReply } from '../harness/copilot-panel-helpers.ts';
import { act, click, done, pageText, reading, refNamed } from '../harness/copilot-replies.ts';

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

/** Settings → the co-pilot's model: the scripted server, saved by Settings' one Save, in Vietnamese. */
async function useScriptedModel(panel: Page, model: Pick<ScriptedModel, 'url'>): Promise<void> {
  await showView(panel, vi('tab_settings'));
  await panel.getByLabel(vi('copilot_endpoint'), { exact: true }).fill(model.url);
  await panel.getByLabel(vi('copilot_model_name'), { exact: true }).fill('scripted');
  // The person granted the model's server in Chrome's extension settings: saving asks Chrome, with no prompt.
  await grantInChromeSettings({ context: panel.context(), extensionId: new URL(panel.url()).host }, [model.url]);
  await panel.getByRole('button', { name: vi('settings_save'), exact: true }).click();
  await expect(panel.getByRole('status').filter({ hasText: vi('settings_saved') })).toHaveText(vi('settings_saved'));
}

/** Types the goal in the Co-pilot view (in Vietnamese) and presses Enter; the run's region. */
async function startGoalInVietnamese(panel: Page, goal: string) {
  await showView(panel, vi('tab_copilot'));
  const box = panel.getByLabel(vi('copilot_goal_label'));
  await box.fill(goal);
  await box.press('Enter');
  const run = panel.getByRole('region', { name: new RegExp(`^${goal}`) });
  await expect(run).toBeVisible();
  return run;
}

test.describe('the co-pilot’s run, as the service worker words it', () => {
  let model: ScriptedModel;
  test.beforeEach(async () => {
    model = await startScriptedModel();
  });
  test.afterEach(async () => {
    await model.stop();
  });

  test('in a Vietnamese browser a denied step and the run’s end say so in Vietnamese, from the worker’s phrases', async ({ steward, sites, openPanel }) => {
    model.script([cancelReply, cancelledReply]);
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
    const panel = await openPanel(page);
    await useScriptedModel(panel, model);
    const run = await startGoalInVietnamese(panel, `cancel order ${SHOP_ORDER}`);
    const step = run.getByRole('listitem', { name: new RegExp(`^${viSays('copilot_step', '1')}`) });
    await step
      .getByRole('article')
      .getByRole('button', { name: vi('card_deny'), exact: true })
      .click();

    await expect(step.getByRole('heading', { level: 4 })).toContainText(vi('copilot_step_denied'));
    await expect(step).toContainText(vi('said_step_denied'));
    const end = run.getByRole('region', { name: vi('copilot_stop_title_denied_by_person') });
    await expect(end).toContainText(viSays('said_run_denied_on', 'orders.cancel', 'order', SHOP_ORDER));
    // Nothing of the worker's English reaches the person.
    await expect(run).not.toContainText('You denied');
  });

  test('in a Vietnamese browser a step the page refused says why in Vietnamese: the button, and the banner that covers it', async ({ steward, sites, openPanel }) => {
    model.script([click('Publish', 'the post is published'), done('Publish was pressed.')]);
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.lab}/widgets/v-covered`);
    const panel = await openPanel(page);
    await useScriptedModel(panel, model);
    const run = await startGoalInVietnamese(panel, 'press Publish');
    const step = run.getByRole('listitem', { name: new RegExp(`^${viSays('copilot_step', '1')}`) });
    const button = viSays('said_act_element', vi('said_role_button'), 'Publish');
    const banner = viSays('said_act_element', vi('said_role_overlay'), 'We use cookies to keep you signed in.');
    // The step's error line: its label, then the sentence.
    const sentence = step.getByText(viSays('said_act_covered', button, banner));
    // Steward cannot tell what Publish does: the person approves its card, in Vietnamese, when it asks.
    const approve = step.getByRole('article').getByRole('button', { name: vi('card_approve'), exact: true });
    await expect(approve.or(sentence)).toBeVisible();
    if (await approve.isVisible()) await approve.click();

    await expect(sentence).toBeVisible();
    // The worker's English (what the agent was told) is not what the person reads: it stays one click away.
    const english = step.getByText(/is covered by overlay/);
    await expect(english).toBeHidden();
    await step.getByText(vi('said_details'), { exact: true }).click();
    await expect(english).toBeVisible();

    // Activity says why on the action's row, in the same Vietnamese words.
    await showView(panel, vi('tab_activity'));
    const task = panel.getByRole('list', { name: vi('activity_log_label') }).getByRole('listitem', { name: 'press Publish', exact: true });
    await expect(task.getByTestId('activity-why')).toHaveText(viSays('said_act_covered', button, banner));
  });

  test('in a Vietnamese browser a run stopped after repeated failures lists each refused step by why, in Vietnamese, the code behind Details', async ({ steward, sites, openPanel }) => {
    // Three different steps (the same one three times is "stuck", not "failures"), each refused under the cookie banner.
    const hover = reading((r) => act('dom.hover', { ref: refNamed(pageText(r), 'Publish') }, 'Point at “Publish”.', 'its hint shows'));
    model.script([hover, click('Publish', 'the post is published'), hover]);
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.lab}/widgets/v-covered`);
    const panel = await openPanel(page);
    await useScriptedModel(panel, model);
    const run = await startGoalInVietnamese(panel, 'publish the draft');
    // Steward cannot tell what Publish does: the person approves the click's card when it asks.
    const end = run.getByRole('region', { name: vi('copilot_stop_title_failures') });
    const approve = run.getByRole('article').getByRole('button', { name: vi('card_approve'), exact: true });
    await expect(approve.or(end)).toBeVisible();
    if (await approve.isVisible()) await approve.click();

    const errors = end.getByRole('list', { name: vi('copilot_errors_label') });
    await expect(errors.getByRole('listitem')).toHaveCount(3);
    const button = viSays('said_act_element', vi('said_role_button'), 'Publish');
    const banner = viSays('said_act_element', vi('said_role_overlay'), 'We use cookies to keep you signed in.');
    const why = viSays('said_act_covered', button, banner);
    // Each line: the sentence, then its Details.
    for (const n of [1, 2, 3]) await expect(errors.getByRole('listitem').nth(n - 1)).toContainText(viSays('said_failure_act_refused', String(n), why));
    // Not the generic "failed while running" line: the code and the worker's English stay one click away.
    await expect(end).not.toContainText(vi('said_error_EXECUTION_FAILED'));
    const first = errors.getByRole('listitem').first();
    const english = first.getByText(/EXECUTION_FAILED: dom\.hover failed before it took effect: .*is covered by overlay/);
    await expect(english).toBeHidden();
    await first.getByText(vi('said_details'), { exact: true }).click();
    await expect(english).toBeVisible();
  });

  test('in a Vietnamese browser a stopped run says “stopped by you” in Vietnamese, in the run and in Activity', async ({ steward, sites, openPanel }) => {
    model.script([cancelReply, cancelledReply]);
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
    const panel = await openPanel(page);
    await useScriptedModel(panel, model);
    const goal = `cancel order ${SHOP_ORDER}`;
    const run = await startGoalInVietnamese(panel, goal);
    await expect(run.getByRole('article')).toBeVisible();
    await run.getByRole('button', { name: vi('copilot_stop'), exact: true }).click();

    await expect(run.getByRole('region', { name: vi('copilot_stop_title_stopped_by_person') })).toContainText(vi('copilot_stop_stopped_by_person'));
    const step = run.getByRole('listitem', { name: new RegExp(`^${viSays('copilot_step', '1')}`) });
    await expect(step.getByRole('heading', { level: 4 })).toContainText(vi('copilot_step_stopped'));
    await expect(step).toContainText(vi('said_step_stopped'));
    await expect(run).not.toContainText('You stopped the run');

    // Activity: the run under what the person asked it, its action stopped by them, in Vietnamese.
    await showView(panel, vi('tab_activity'));
    const task = panel.getByRole('list', { name: vi('activity_log_label') }).getByRole('listitem', { name: goal, exact: true });
    await expect(task.locator('.task-head')).toContainText(vi('result_stopped_by_you'));
    // Its time as Vietnamese is written: 24-hour, no AM/PM.
    await expect(task.locator('.task-head .meta')).toContainText(/\b\d{2}:\d{2}:\d{2}\b/);
    await expect(task.locator('.task-head .meta')).not.toContainText(/AM|PM/);
    await expect(task.getByRole('button', { name: /^orders\.cancel/ })).toContainText(vi('result_stopped_by_you'));
  });
});

test('in a Vietnamese browser a dead model endpoint is said in Vietnamese: Test connection and the Co-pilot view name the server and what to check', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  const gone = await startScriptedModel();
  const endpoint = gone.url;
  const host = new URL(endpoint).host;
  await gone.stop();
  await useScriptedModel(panel, { url: endpoint });

  // "Steward không kết nối được tới <host> (<the browser's own error>). Hãy kiểm tra …": the part before and after the browser's words.
  const [before, after] = viSays('said_model_unreachable', host, '\u0000').split('\u0000');
  const copilot = panel.getByRole('group', { name: vi('copilot_settings_link') });
  await copilot.getByRole('button', { name: vi('copilot_test_connection'), exact: true }).click();
  const result = panel.getByRole('status', { name: vi('copilot_test_label') });
  await expect(result).toContainText(viSays('copilot_test_failed', before!));
  await expect(result).toContainText(after!);
  await expect(result).not.toContainText('could not reach');

  await showView(panel, vi('tab_copilot'));
  const line = panel.getByRole('status', { name: vi('copilot_model_label') });
  await expect(line).toContainText(viSays('said_model_label_at', 'scripted', host));
  await expect(line).toContainText(viSays('copilot_not_ready', before!));
  await expect(line).toContainText(after!);
  await expect(line).not.toContainText('could not reach');
  await expect(line.getByRole('button', { name: vi('copilot_set_up_model'), exact: true })).toBeVisible();
});

test('in a Vietnamese browser a refused request is said in Vietnamese: Connect without a session on the shop says to sign in first, from the catalogue', async ({ steward, sites, openPanel }) => {
  const shop = await steward.context.newPage();
  await shop.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(shop);
  await showView(panel, vi('tab_this_tab'));
  const block = panel.getByTestId('contract-site');
  // The site's name as its contract gives it: the block's heading.
  const siteName = (await block.getByRole('heading', { level: 3 }).textContent())!.trim();
  expect(siteName).not.toBe('');

  // Without the demo customer's session the shop refuses the grant (login_required): a real refusal, worded by the worker as a phrase.
  await steward.context.clearCookies();
  await block.getByTestId('contract-connect').click();
  const error = block.getByTestId('contract-error');
  await expect(error).toHaveText(viSays('said_contract_sign_in', siteName));
  await expect(error).not.toContainText('Sign in to');
  await expect(block.getByTestId('contract-consent')).toBeVisible();
});
