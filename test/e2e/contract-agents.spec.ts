import type { Page } from '@playwright/test';
import { observedThroughContract } from '../../bench/contract-connect.ts';
import { startScriptedModel } from '../../sites/model/scripted-server.ts';
import type { ObservedState } from '../../src/protocol/observed-state.ts';
import { connectStdio, errorCodeOf, launchWithBridge, openSidePanel, pairClient, payloadOf, type BridgeBrowser, type ToolReply } from '../harness/bridge-harness.ts';
import { configureCopilot, type Run } from '../harness/copilot-helpers.ts';
import { startGoal } from '../harness/copilot-panel-helpers.ts';
import { callToolVia, done, offeredAction, offeredTools } from '../harness/copilot-replies.ts';
import { test, expect, tabIdOf } from '../harness/fixtures.ts';
import { showView } from '../harness/panel-helpers.ts';
import { control, data, ORDER, shopOrderPage, type ShopState } from '../harness/pipeline-helpers.ts';

/**
 * Agents take the contract path when the site offers it: once the person has connected Steward to
 * the shop in the side panel, the co-pilot and a paired MCP client both get the shop's contract
 * first, and "cancel ORD-1024" is one orders.cancel through it (site_contract), approved once by
 * the person, confirmed by the site and made once on the shop. One browser (with the MCP bridge
 * installed) for the file; each test starts with no connection and the shop at its seed. The
 * connect and shop-record steps mirror test/e2e/contract-helpers.ts (h/e2e), which is not on main yet.
 */

/** What the person grants on the consent form: read and cancel this one order, no payment. */
const CONSENT = { scopes: ['orders:read', 'orders:cancel'], resources: 'order:ORD-1024' };

let world: BridgeBrowser;
let shop: string;

test.beforeAll(async ({ sites }) => {
  shop = sites.urls.shop;
  world = await launchWithBridge({ nativeWebMcp: true, allowSites: [shop] });
});
test.afterAll(async () => world?.close());

// Each test: no page left open but one, no grant held (disconnected while the shop still knows the token), the shop at its seed.
test.beforeEach(async () => {
  const [, ...rest] = world.context.pages();
  for (const p of rest) await p.close();
  const panel = await openSidePanel(world);
  for (const site of (await data<{ sites: Array<{ origin: string; connection: { status: string } }> }>(control(panel, { type: 'panel/contract-sites' }))).sites) {
    if (site.connection.status !== 'none') await data(control(panel, { type: 'panel/contract-disconnect', origin: site.origin }));
  }
  await panel.close();
  expect((await fetch(new URL('/__demo/reset', shop), { method: 'POST' })).ok).toBe(true);
});

/** The person ticks only the scopes of CONSENT on the "This tab" view's consent form, names the order, and presses Connect. */
async function connectInPanel(panel: Page): Promise<void> {
  await panel.bringToFront();
  await showView(panel, 'This tab');
  const site = panel.getByTestId('contract-site');
  const form = site.getByTestId('contract-consent');
  const boxes = form.getByTestId('contract-scope');
  await expect(boxes.first()).toBeVisible();
  const offered = await boxes.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  for (let i = 0; i < offered.length; i++) await boxes.nth(i).setChecked(CONSENT.scopes.includes(offered[i]!));
  const resources = form.getByTestId('contract-resource-scope');
  if ((await resources.evaluate((e) => e.tagName)) === 'SELECT') await resources.selectOption(CONSENT.resources);
  else await resources.fill(CONSENT.resources);
  const payment = form.getByTestId('contract-payment');
  if ((await payment.count()) > 0) await payment.setChecked(false);
  await form.getByTestId('contract-connect').click();
  await expect(site.getByTestId('contract-connected')).toContainText('Connected as Jordan Lee');
}

/** The shop's own records, with its event log (which path made each cancellation). */
interface ShopRecords extends ShopState {
  events: Array<{ type: string; order_id?: string; via?: string }>;
}
const shopRecords = async () => (await (await fetch(new URL('/__demo/state', shop))).json()) as ShopRecords;
/** Executions the shop's agent API received. */
const executeRequests = (s: ShopState) => s.requests.filter((r) => r.method === 'POST' && r.path === '/agent/v1/actions/execute');

/** The pending card in the Approvals view. */
async function approvalCard(panel: Page) {
  await panel.bringToFront();
  await showView(panel, 'Approvals');
  const card = panel.getByRole('article', { name: new RegExp(`^Cancel order ${ORDER.id} on `) });
  await expect(card).toBeVisible();
  return card;
}

/** Waits until Steward observes the tab through the contract, orders.cancel offered on that path. */
async function throughContract(panel: Page, tabId: number): Promise<ObservedState> {
  let state: ObservedState | null = null;
  await expect
    .poll(
      async () => {
        state = (await data<{ state: ObservedState | null }>(control(panel, { type: 'panel/observe-tab', tabId }))).state;
        return observedThroughContract(state, 'orders.cancel');
      },
      { message: 'the tab was never observed through the shop’s contract' },
    )
    .toBe(true);
  return state!;
}

/** The shop made exactly one cancellation of ORD-1024, through one execution on its agent API. */
async function expectOneCancellationByAgent(): Promise<void> {
  const after = await shopRecords();
  expect(after.counters[ORDER.id]?.cancelled).toBe(1);
  expect(after.events.filter((e) => e.type === 'order_cancelled' && e.order_id === ORDER.id).map((e) => e.via)).toEqual(['agent']);
  expect(executeRequests(after)).toHaveLength(1);
  expect(after.orders.find((o) => o.id === ORDER.id)?.status).toBe('cancelled');
}

test('the co-pilot cancels ORD-1024 in one step through the shop’s contract, with one approval', async () => {
  const model = await startScriptedModel();
  try {
    const page = await shopOrderPage(world.context, shop);
    const tabId = await tabIdOf(world.serviceWorker, page);
    const panel = await openSidePanel(world, tabId);
    await connectInPanel(panel);
    expect(Number.isInteger((await throughContract(panel, tabId)).state_version)).toBe(true);
    await configureCopilot(panel, model);
    model.script([callToolVia('orders.cancel', 'site_contract', { reason: 'ordered_by_mistake' }, 'the order is cancelled'), done('Order ORD-1024 is cancelled.')]);

    // The person types the goal in the Co-pilot view; the step's card says which path it runs on.
    const view = await startGoal(panel, 'cancel ORD-1024');
    const step = view.getByRole('listitem', { name: /^Step 1/ });
    const card = step.getByRole('article', { name: new RegExp(`^Cancel order ${ORDER.id} on `) });
    await card.getByText('Details', { exact: true }).click();
    await expect(card.getByTestId('action-path')).toContainText(/site contract/i);
    expect(executeRequests(await shopRecords())).toHaveLength(0);
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(view.getByRole('region', { name: 'Done, verified' })).toBeVisible();
    await expect(step).toContainText('site contract');

    // The prompt listed the contract's orders.cancel, and every contract action ahead of other paths'.
    const offered = offeredAction(model.requests[0]!, 'orders.cancel');
    expect(offered).toMatch(/^- orders\.cancel via site_contract, consequential, needs approval/);
    const vias = offeredTools(model.requests[0]!).map((line) => /^- \S+ via (\w+),/.exec(line)?.[1]);
    expect(vias[0]).toBe('site_contract');
    expect(vias).toEqual([...vias.filter((v) => v === 'site_contract'), ...vias.filter((v) => v !== 'site_contract')]);

    // One action step (the DOM path takes a select and a click), then the answer: two model calls.
    const { runs } = await data<{ runs: Run[] }>(control(panel, { type: 'copilot/runs', tabId }));
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run.end).toMatchObject({ kind: 'done', verified: true });
    expect(run.steps.filter((s) => s.action).map((s) => [s.action!.name, s.action!.via, s.status])).toEqual([['orders.cancel', 'site_contract', 'succeeded']]);
    expect(new Set(run.steps.map((s) => s.n)).size).toBe(2);
    expect(model.requests).toHaveLength(2);

    // Steward dispatched it through the contract, after exactly one approval of the run's agent.
    const { entries } = await data<{ entries: Array<{ kind: string; agent_id?: string; action?: string; details?: { via?: string } }> }>(control(panel, { type: 'panel/audit' }));
    const mine = entries.filter((e) => e.agent_id === run.agent_id);
    expect(mine.filter((e) => e.kind === 'approval_request')).toHaveLength(1);
    expect(mine.filter((e) => e.kind === 'dispatch').map((e) => [e.action, e.details?.via])).toEqual([['orders.cancel', 'site_contract']]);
    await expectOneCancellationByAgent();
  } finally {
    await model.stop();
  }
});

test('an MCP client sees orders.cancel via the contract, observes site_contract, and cancels once after the person approves', async () => {
  let panel = await openSidePanel(world);
  const client = await connectStdio(world, 'v2', 'Contract Client');
  try {
    await pairClient(client, panel, { sites: [new URL(shop).origin], scopes: '*:*' });
    const opened = await client.call('steward_open', { url: `${shop}/orders/${ORDER.id}` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = (payloadOf(opened) as { tab: { tab_id: number } }).tab.tab_id;
    await panel.close();
    panel = await openSidePanel(world, tabId);
    await connectInPanel(panel);

    type Summary = { resource: { type: string; id: string }; state: string; state_version: number | string; source: string; confidence: number };
    let summary: Summary | undefined;
    await expect
      .poll(async () => {
        summary = (payloadOf(await client.call('steward_observe', { tab_id: tabId })) as { summary?: Summary }).summary;
        return summary?.source;
      })
      .toBe('site_contract');
    expect(summary).toMatchObject({ resource: ORDER, state: 'awaiting_payment', confidence: 1 });
    expect(Number.isInteger(summary!.state_version)).toBe(true);

    const { actions } = payloadOf(await client.call('steward_actions', { tab_id: tabId })) as { actions: Array<{ action: string; via: string; needs_approval: boolean }> };
    expect(actions.find((a) => a.action === 'orders.cancel')).toMatchObject({ via: 'site_contract', needs_approval: true });

    const cancel = {
      tab_id: tabId,
      action: 'orders.cancel',
      resource: ORDER,
      preconditions: { expected_state: 'awaiting_payment', state_version: summary!.state_version },
      input: { reason: 'ordered_by_mistake' },
      idempotency_key: 'contract-mcp-cancel-ord-1024',
      rationale: 'The person ordered this by mistake.',
    };
    const asked = await client.call('steward_execute', cancel);
    expect(errorCodeOf(asked), asked.text).toBe('APPROVAL_REQUIRED');
    expect(executeRequests(await shopRecords())).toHaveLength(0);

    const card = await approvalCard(panel);
    await card.getByText('Details', { exact: true }).click();
    await expect(card.getByTestId('action-path')).toContainText(/site contract/i);
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(card).toHaveCount(0);

    // The retry with the same key gets the outcome (IN_PROGRESS while the site is still answering).
    let final: ToolReply = await client.call('steward_execute', cancel);
    await expect
      .poll(async () => {
        if (errorCodeOf(final) === 'IN_PROGRESS') final = await client.call('steward_execute', cancel);
        return errorCodeOf(final) ?? (payloadOf(final) as { execution?: { status: string } }).execution?.status;
      })
      .toBe('confirmed');
    const result = payloadOf(final) as { action_id: string; execution: { verified_by?: string }; resource: { state: string } };
    expect(result.execution.verified_by).toBe('site_contract');
    expect(result.resource.state).toBe('cancelled');
    await expectOneCancellationByAgent();

    // Once more with the same key: the same result, and still one cancellation on the shop.
    const again = await client.call('steward_execute', cancel);
    expect(payloadOf(again)).toMatchObject({ action_id: result.action_id, execution: { status: 'confirmed' } });
    await expectOneCancellationByAgent();
  } finally {
    await client.close();
  }
});
