import { startScriptedModel, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { cancelReply, cancelledReply, configureModel, startGoal } from './copilot-panel-helpers.ts';
import { test, expect } from './fixtures.ts';
import { SHOP_ORDER, shopState } from './panel-helpers.ts';
import { control, data } from './pipeline-helpers.ts';

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
  await expect(panel.getByRole('status', { name: 'Model status' })).toContainText('Model ready');
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
  await expect(run.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(run.getByRole('article', { name: COPILOT_CARD })).toHaveCount(0);
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]!.cancelled).toBe(0);
  // The stop withdrew the run's card: nothing is left pending, and the audit says it was denied by the stop.
  await expect.poll(async () => (await data<{ pending: unknown[] }>(control(panel, { type: 'panel/approvals' }))).pending).toEqual([]);
  const { entries } = await data<{ entries: Array<{ kind: string; outcome?: string; details?: { message?: string } }> }>(control(panel, { type: 'panel/audit' }));
  expect(entries.find((e) => e.kind === 'denial')).toMatchObject({ outcome: 'denied', details: { message: expect.stringContaining('the person stopped the co-pilot run') } });
  // The goal box is free for the next run.
  await expect(panel.getByLabel('What should the co-pilot do on this page?')).toBeEnabled();
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
