import { DEMO_MODEL, startDemoModel } from '../../sites/model/demo-model.ts';
import { configureModel, startGoal } from '../harness/copilot-panel-helpers.ts';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, shopState } from '../harness/panel-helpers.ts';
import { control, data } from '../harness/pipeline-helpers.ts';
import { DEMO_GOAL, startTabs } from '../../sites/start-tabs.ts';

/**
 * What `npm start` offers a person without a model of their own: the bundled demo model (rules
 * reading Steward's prompt, not a language model), labelled as such, cancels an order from the
 * Co-pilot view with the one approval clicked right in the run — on the first tab `npm start`
 * opens, with the goal the README gives.
 */
test('the demo model that npm start bundles cancels ORD-1024 with one approval in the Co-pilot view', async ({ steward, sites, openPanel }) => {
  const model = await startDemoModel();
  try {
    const page = await steward.context.newPage();
    await page.goto(startTabs(sites.urls)[0]!);
    const panel = await openPanel(page);
    await configureModel(panel, model.url, { model: DEMO_MODEL });
    await expect(panel.getByText('Demo model — scripted replies, not a language model').first()).toBeVisible();

    const run = await startGoal(panel, DEMO_GOAL);
    const cards = run.getByRole('article', { name: new RegExp(`^Cancel order ${SHOP_ORDER} on .*, asked by Steward co-pilot$`) });
    await expect(cards).toHaveCount(1);
    expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]!.cancelled).toBe(0);
    await cards.first().getByRole('button', { name: 'Approve', exact: true }).click();

    await expect(run.getByRole('region', { name: 'Done, verified' })).toBeVisible();
    // One approval was all it took: the audit log holds exactly one card for the run's agent.
    const agent = (await run.locator('code').first().textContent())!;
    expect(agent).toMatch(/^agent:copilot-/);
    const { entries } = await data<{ entries: Array<{ kind: string; agent_id: string }> }>(control(panel, { type: 'panel/audit' }));
    expect(entries.filter((e) => e.agent_id === agent && e.kind === 'approval_request')).toHaveLength(1);
    const shop = await shopState(sites.urls.shop);
    expect(shop.counters[SHOP_ORDER]!.cancelled).toBe(1);
    expect(shop.orders.find((o) => o.id === SHOP_ORDER)?.status).toBe('cancelled');
  } finally {
    await model.stop();
  }
});
