import { startScriptedModel, type ChatRequestBody, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { clickStewardButton, grantInChromeSettings, tabIdOfAnyPage } from '../harness/browser.ts';
import { cancelReply, cancelledReply, configureModel, startGoal } from '../harness/copilot-panel-helpers.ts';
import { promptOf } from '../harness/copilot-replies.ts';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, shopState, showView } from '../harness/panel-helpers.ts';
import { control, data } from '../harness/pipeline-helpers.ts';

/**
 * The Co-pilot view with a real service worker, pipeline and shop; only the language model is
 * scripted (a local OpenAI-compatible server), configured through Settings like a person would.
 */
let model: ScriptedModel;
test.beforeEach(async () => {
  model = await startScriptedModel();
});
test.afterEach(async () => {
  await model.stop();
});

const GOAL = `cancel order ${SHOP_ORDER}`;
/** The step's card, named by its first line: the co-pilot asks. */
const COPILOT_CARD = new RegExp(`^Cancel order ${SHOP_ORDER} on localhost:\\d+, asked by Steward co-pilot$`);

test('a goal typed in the Co-pilot view cancels the order, with the approval clicked right in the run', async ({ steward, sites, openPanel }) => {
  model.script([cancelReply, cancelledReply]);
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  // The co-pilot is what the panel opens on.
  await expect(panel.getByRole('tab', { name: 'Co-pilot' })).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByRole('tab')).toHaveText(['Co-pilot', 'Approvals', 'Activity', 'Tokens', 'This tab', 'Settings']);
  await expect(panel.getByText(`Steward will give this run a token for ${new URL(sites.urls.shop).origin} only`)).toBeVisible();

  await configureModel(panel, model.url);
  // Complete settings are not "ready": the connection test calls the endpoint.
  await expect(panel.getByRole('status', { name: 'Model status' })).toContainText('Model set up');
  await panel.getByRole('button', { name: 'Test connection' }).click();
  await expect(panel.getByRole('status', { name: 'Connection test' })).toContainText(`Connected: scripted at ${new URL(model.url).host} answered.`);
  const run = await startGoal(panel, GOAL);

  const step = run.getByRole('listitem', { name: /^Step 1/ });
  await expect(step).toContainText('orders.cancel');
  await expect(step).toContainText('The model’s words');
  await expect(step).toContainText('The person wants order ORD-1024 cancelled');
  const card = step.getByRole('article', { name: COPILOT_CARD });
  await expect(card).toBeVisible();
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]!.cancelled).toBe(0);
  await card.getByRole('button', { name: 'Approve', exact: true }).click();

  await expect(run.getByRole('region', { name: 'Done, verified' })).toContainText(`Order ${SHOP_ORDER} is cancelled.`);
  await expect(step).toContainText('succeeded');
  // Two steps, each shown once: the cancellation, then the final answer with the pipeline's evidence.
  await expect(run.getByRole('listitem', { name: /^Step \d/ })).toHaveCount(2);
  await expect(run.getByRole('region', { name: 'Done, verified' })).toContainText('confirmed');
  await expect(run.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  const shop = await shopState(sites.urls.shop);
  expect(shop.counters[SHOP_ORDER]!.cancelled).toBe(1);
  expect(shop.orders.find((o) => o.id === SHOP_ORDER)?.status).toBe('cancelled');

  // The run's audit entries: the Activity view, filtered to the run's own agent.
  const agent = (await run.locator('code').first().textContent())!;
  expect(agent).toMatch(/^agent:/);
  await run.getByRole('button', { name: 'Audit entries of this run' }).click();
  await expect(panel.getByRole('tab', { name: 'Activity' })).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByLabel('Agent')).toHaveValue(agent);
  await expect(panel.getByRole('list', { name: 'Activity log' })).toContainText('orders.cancel');
});

test('Escape stops a running run, and nothing is done on the site', async ({ steward, sites, openPanel }) => {
  model.script([cancelReply, cancelledReply]);
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  await configureModel(panel, model.url);
  const run = await startGoal(panel, GOAL);
  await expect(run.getByRole('article', { name: COPILOT_CARD })).toBeVisible();
  await expect(run.getByRole('button', { name: 'Stop' })).toBeVisible();

  await panel.keyboard.press('Escape');
  await expect(run.getByRole('region', { name: 'Stopped by you' })).toBeVisible();
  // The step the person cut short is theirs too: never "failed".
  await expect(run.getByRole('listitem', { name: /^Step 1/ }).getByRole('heading')).toContainText('Stopped by you');
  await expect(run).not.toContainText(/failed/i);
  await expect(run.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(run.getByRole('article', { name: COPILOT_CARD })).toHaveCount(0);
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]!.cancelled).toBe(0);
  // The stop withdrew the run's card: nothing is left pending, and the audit records the person's stop (not a Deny).
  await expect.poll(async () => (await data<{ pending: unknown[] }>(control(panel, { type: 'panel/approvals' }))).pending).toEqual([]);
  const { entries } = await data<{ entries: Array<{ kind: string; outcome?: string; details?: { message?: string } }> }>(control(panel, { type: 'panel/audit' }));
  expect(entries.find((e) => e.kind === 'denial')).toMatchObject({
    outcome: 'stopped',
    details: { message: expect.stringContaining('the person stopped the co-pilot run'), stopped_by: 'user:local' },
  });
  // The goal box is free for the next run.
  await expect(panel.getByLabel('What should the co-pilot do on this page?')).toBeEnabled();
});

test('Deny on the run’s card is the person’s decision: the step and the run’s end say “Denied by you”, never failed', async ({ steward, sites, openPanel }) => {
  model.script([cancelReply, cancelledReply]);
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  await configureModel(panel, model.url);
  const run = await startGoal(panel, GOAL);
  const step = run.getByRole('listitem', { name: /^Step 1/ });
  const card = step.getByRole('article', { name: COPILOT_CARD });
  await card.getByRole('button', { name: 'Deny' }).click();

  await expect(run.getByRole('region', { name: 'Denied by you' })).toContainText(`You denied orders.cancel on order ${SHOP_ORDER}`);
  await expect(step.getByRole('heading')).toContainText('Denied by you');
  await expect(step).toContainText('You denied this action; nothing was done.');
  await expect(run).not.toContainText(/failed/i);
  await expect(run.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  // The model is not asked for a way around the person's no.
  expect(model.requests).toHaveLength(1);
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]!.cancelled).toBe(0);
});

test('the co-pilot asks the person: the question has an answer box, Enter sends the answer, and the run goes on with it', async ({ steward, sites, openPanel }) => {
  const question = 'Which reason should I give for cancelling?';
  const asks = JSON.stringify({ kind: 'ask_person', thought: 'The shop wants a reason.', question });
  // The model goes on only with the person's answer in its prompt, as the person's words.
  const withAnswer = (body: ChatRequestBody) =>
    promptOf(body).includes('the person answered: "I ordered it by mistake"') ? cancelReply : JSON.stringify({ kind: 'done', thought: 'no answer', claim: 'no answer seen' });
  model.script([asks, withAnswer, cancelledReply]);
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  await configureModel(panel, model.url);
  const run = await startGoal(panel, GOAL);

  const asked = run.getByRole('form', { name: 'The co-pilot’s question' });
  await expect(asked).toContainText(question);
  await expect(run.getByRole('heading', { level: 3 })).toContainText('Waiting for your answer');
  const box = asked.getByLabel('Your answer');
  await expect(box).toHaveAccessibleDescription(question);
  await box.focus();
  await panel.keyboard.type('I ordered it by mistake');
  await panel.keyboard.press('Enter');

  const step1 = run.getByRole('listitem', { name: /^Step 1/ });
  await expect(step1).toContainText('answered by you');
  await expect(step1).toContainText('I ordered it by mistake');
  await expect(asked).toHaveCount(0);
  const card = run.getByRole('article', { name: COPILOT_CARD });
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(run.getByRole('region', { name: 'Done, verified' })).toContainText(`Order ${SHOP_ORDER} is cancelled.`);
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]!.cancelled).toBe(1);
});

test('a run waiting for the person’s answer can be stopped, and reads “Stopped by you”', async ({ steward, sites, openPanel }) => {
  model.script([JSON.stringify({ kind: 'ask_person', thought: 'Two orders match.', question: 'Which order do you mean?' })]);
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  await configureModel(panel, model.url);
  const run = await startGoal(panel, GOAL);
  await expect(run.getByRole('form', { name: 'The co-pilot’s question' })).toContainText('Which order do you mean?');
  await run.getByRole('button', { name: 'Stop' }).click();

  await expect(run.getByRole('region', { name: 'Stopped by you' })).toBeVisible();
  await expect(run.getByRole('listitem', { name: /^Step 1/ }).getByRole('heading')).toContainText('Stopped by you');
  await expect(run.getByRole('form', { name: 'The co-pilot’s question' })).toHaveCount(0);
  await expect(run).not.toContainText(/failed/i);
  expect(model.requests).toHaveLength(1);
});

test('the model’s reply streams into its step: its words show while the reply is still coming', async ({ steward, sites, openPanel }) => {
  let resume: () => void = () => undefined;
  const resumed = new Promise<void>((r) => (resume = r));
  // The server stops in the middle of the step's thought until the test lets it go on.
  model.script([{ text: cancelReply, pauseAt: cancelReply.indexOf('cancelled;'), resume: resumed }, cancelledReply]);
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  await configureModel(panel, model.url);
  try {
    const run = await startGoal(panel, GOAL);
    const step = run.getByRole('listitem', { name: /^Step 1/ });
    const writing = step.getByRole('figure', { name: 'The model is writing (not checked by Steward):' });
    await expect(writing).toContainText('The person wants order ORD-1024');
    await expect(writing).not.toContainText('offers a cancel action');
    await expect(step.getByRole('article')).toHaveCount(0);
    expect(model.requests[0]).toMatchObject({ stream: true });

    resume();
    await expect(step).toContainText('The person wants order ORD-1024 cancelled; the page offers a cancel action for it.');
    await expect(writing).toHaveCount(0);
    await step.getByRole('article', { name: COPILOT_CARD }).getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(run.getByRole('region', { name: 'Done, verified' })).toContainText(`Order ${SHOP_ORDER} is cancelled.`);
  } finally {
    resume();
  }
});

test('the model check catches a dead endpoint: Test connection and the Co-pilot view say so plainly, and “ready” comes only once it answers', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  const gone = await startScriptedModel();
  const endpoint = gone.url;
  const host = new URL(endpoint).host;
  await gone.stop();
  await configureModel(panel, endpoint);

  await panel.getByRole('button', { name: 'Test connection' }).click();
  await expect(panel.getByRole('status', { name: 'Connection test' })).toContainText(`Connection failed: Steward could not reach ${host}`);
  await showView(panel, 'Co-pilot');
  const line = panel.getByRole('status', { name: 'Co-pilot model' });
  await expect(line).toContainText(`not ready: Steward could not reach ${host}`);
  await expect(line).not.toContainText('· ready');
  await expect(line.getByRole('button', { name: 'Set up the model' })).toBeVisible();

  // The same endpoint with its server running again.
  const back = await startScriptedModel({ port: Number(new URL(endpoint).port) });
  try {
    await showView(panel, 'Settings');
    await panel.getByRole('button', { name: 'Test connection' }).click();
    await expect(panel.getByRole('status', { name: 'Connection test' })).toContainText('Connected: scripted at');
    await showView(panel, 'Co-pilot');
    await expect(line).toContainText('· ready');
    // The check costs no reply of the model: nothing was asked of it.
    expect(back.requests).toEqual([]);
  } finally {
    await back.stop();
  }
});

test('a model server that refuses the key is explained in a plain sentence, with the way to Settings', async ({ steward, sites, openPanel }) => {
  model.script([{ status: 401, body: { error: { message: 'Incorrect API key provided: sk-wr***ng.', type: 'invalid_request_error', code: 'invalid_api_key' } } }]);
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  await configureModel(panel, model.url, { key: 'sk-wrong' });
  const run = await startGoal(panel, GOAL);

  const alert = run.getByRole('alert');
  await expect(alert).toContainText('The model’s server refused the API key. Check the key in Settings → Co-pilot');
  expect(model.requests.length).toBeGreaterThan(0);
  // The key itself is never shown back.
  await expect(panel.locator('body')).not.toContainText('sk-wrong');
  await alert.getByRole('button', { name: 'Open co-pilot settings' }).click();
  await expect(panel.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByText('A key is stored.')).toBeVisible();
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]!.cancelled).toBe(0);
});

test.describe('on a site Steward may not read', () => {
  test.use({ demoSitesAllowed: false });

  test('the Co-pilot view offers the Allow button itself, and the goal can be started once the site is allowed', async ({ steward, sites }) => {
    const shop = new URL(sites.urls.shop).origin;
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
    const tabId = await tabIdOfAnyPage(steward.serviceWorker, page);
    // The person clicks Steward's toolbar button on the shop: Chrome shows Steward this tab (activeTab).
    await clickStewardButton(steward, page);
    const panel = await steward.context.newPage();
    await panel.goto(`chrome-extension://${steward.extensionId}/src/sidepanel/index.html?tabId=${tabId}&view=tab`);
    await configureModel(panel, model.url);
    await showView(panel, 'Co-pilot');
    const view = panel.getByRole('tabpanel', { name: 'Co-pilot' });
    const access = view.getByRole('region', { name: 'Site access' });
    await expect(access).toContainText(`Steward does not read ${shop}`);
    await view.getByLabel('What should the co-pilot do on this page?').fill(GOAL);
    await expect(view.getByRole('button', { name: 'Start' })).toBeDisabled();

    // The person said yes to the shop in Chrome's extension settings earlier: Chrome answers without a prompt.
    await grantInChromeSettings(steward, [sites.urls.shop]);
    await access.getByRole('button', { name: `Allow ${shop}` }).click();
    await expect(access.getByRole('status')).toContainText(`Steward now observes ${shop}`);
    await expect(access.getByRole('button', { name: `Allow ${shop}` })).toHaveCount(0);
    await expect(view.getByRole('button', { name: 'Start' })).toBeEnabled();
  });
});
