import type { Page } from '@playwright/test';
import { startScriptedModel, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { observedThroughContract } from '../../bench/native-connect.ts';
import type { ObservedState } from '../../src/protocol/observed-state.ts';
import { approveInPanel, connectStdio, errorCodeOf, launchWithBridge, openSidePanel, pairClient, payloadOf, type BridgeBrowser, type McpClient } from './bridge-harness.ts';
import { configureCopilot, startRun, waitForRun } from './copilot-helpers.ts';
import { callToolVia, done, offeredAction, promptOf } from './copilot-replies.ts';
import { test, expect } from './fixtures.ts';
import { approve, control, data, ORDER, pendingCard, shopOrderPage, shopState } from './pipeline-helpers.ts';
import { showView } from './panel-helpers.ts';

/**
 * Agents take the native path when the site offers it: once the person has connected Steward to
 * the shop in the side panel, the co-pilot and a paired MCP client both see the shop's contract
 * first, and "cancel ORD-1024" is one orders.cancel through it (site_contract), approved once by
 * the person, confirmed by the site, and recorded once by the shop.
 */

const GOAL = 'Cancel order ORD-1024, I ordered it by mistake.';

/** The person connects the tab's site in the side panel: the consent form, Connect, and the grant shown. */
async function connectInPanel(panel: Page): Promise<void> {
  await panel.bringToFront();
  await showView(panel, 'This tab');
  await expect(panel.getByTestId('contract-consent')).toBeVisible();
  await panel.getByTestId('contract-connect').click();
  await expect(panel.getByTestId('contract-connected')).toBeVisible();
  await expect(panel.getByTestId('contract-error')).toHaveCount(0);
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

/** The shop's own count of cancellations of ORD-1024, whichever path made them. */
async function cancellations(shopUrl: string): Promise<number> {
  return (await shopState(shopUrl)).counters[ORDER.id]?.cancelled ?? 0;
}

interface AuditEntry {
  kind: string;
  agent_id?: string;
  action?: string;
  details?: Record<string, unknown>;
}

async function auditOf(panel: Page, agentId: string): Promise<AuditEntry[]> {
  const { entries } = await data<{ entries: AuditEntry[] }>(control(panel, { type: 'panel/audit' }));
  return entries.filter((e) => e.agent_id === agentId);
}

test('the co-pilot cancels ORD-1024 in one step through the shop’s contract, with one approval', async ({ steward, sites, openPanel, tabIdOf }) => {
  const model: ScriptedModel = await startScriptedModel();
  try {
    const page = await shopOrderPage(steward.context, sites.urls.shop);
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    await connectInPanel(panel);
    const observed = await throughContract(panel, tabId);
    expect(Number.isInteger(observed.state_version)).toBe(true);
    await configureCopilot(panel, model);
    model.script([callToolVia('orders.cancel', 'site_contract', { reason: 'ordered_by_mistake' }, 'the order is cancelled'), done('Order ORD-1024 is cancelled.')]);

    const started = await startRun(panel, tabId, GOAL);
    await approve(panel, await pendingCard(panel, 'orders.cancel'));
    const run = await waitForRun(panel, started.run_id, (r) => r.end !== undefined);
    expect(run.end, JSON.stringify(run, null, 1)).toMatchObject({ kind: 'done', verified: true });

    // The prompt listed the contract's orders.cancel, ahead of every other path's action.
    const offered = offeredAction(model.requests[0]!, 'orders.cancel');
    expect(offered).toMatch(/^- orders\.cancel via site_contract, consequential, needs approval/);
    const vias = [...promptOf(model.requests[0]!).matchAll(/^- \S+ via (\w+),/gm)].map((m) => m[1]);
    expect(vias[0]).toBe('site_contract');
    expect(vias).toEqual([...vias.filter((v) => v === 'site_contract'), ...vias.filter((v) => v !== 'site_contract')]);

    // One action step (the DOM path takes a select and a click), then the answer: two model calls.
    expect(run.steps.filter((s) => s.action).map((s) => [s.action!.name, s.action!.via, s.status])).toEqual([['orders.cancel', 'site_contract', 'succeeded']]);
    expect(new Set(run.steps.map((s) => s.n)).size).toBe(2);
    expect(model.requests).toHaveLength(2);

    // Steward dispatched it through the contract, after exactly one approval of this run's agent.
    const audit = await auditOf(panel, run.agent_id);
    expect(audit.filter((e) => e.kind === 'approval_request')).toHaveLength(1);
    expect(audit.filter((e) => e.kind === 'dispatch').map((e) => [e.action, e.details?.via])).toEqual([['orders.cancel', 'site_contract']]);

    // The run view says so to the person.
    await showView(panel, 'Co-pilot');
    await expect(panel.getByRole('listitem').filter({ hasText: 'orders.cancel' }).getByText('site contract')).toBeVisible();

    // The shop cancelled it once, through its agent API (no form post).
    expect(await cancellations(sites.urls.shop)).toBe(1);
    const shop = await shopState(sites.urls.shop);
    expect(shop.orders.find((o) => o.id === ORDER.id)?.status).toBe('cancelled');
    expect(shop.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/${ORDER.id}/cancel`))).toEqual([]);
  } finally {
    await model.stop();
  }
});

test.describe.serial('an MCP client on the connected shop', () => {
  let world: BridgeBrowser;
  let client: McpClient;

  test.beforeAll(async ({ sites }) => {
    for (const url of Object.values(sites.urls)) await fetch(new URL('/__demo/reset', url), { method: 'POST' });
    world = await launchWithBridge({ nativeWebMcp: true, allowSites: [sites.urls.shop] });
    client = await connectStdio(world, 'v2', 'Native Client');
  });

  test.afterAll(async () => {
    await client?.close();
    await world?.close();
  });

  test('sees orders.cancel via the contract, observes site_contract, and cancels once after the person approves', async ({ sites }) => {
    let panel = await openSidePanel(world);
    await pairClient(client, panel, { sites: [new URL(sites.urls.shop).origin] });
    const opened = await client.call('steward_open', { url: `${sites.urls.shop}/orders/${ORDER.id}` });
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
      idempotency_key: 'native-cancel-ord-1024',
      rationale: 'The person ordered this by mistake.',
    };
    const asked = await client.call('steward_execute', cancel);
    expect(errorCodeOf(asked), asked.text).toBe('APPROVAL_REQUIRED');
    expect(await cancellations(sites.urls.shop)).toBe(0);

    await approveInPanel(panel, 'orders.cancel');
    const final = await client.call('steward_execute', cancel);
    expect(final.isError, final.text).toBe(false);
    const result = payloadOf(final) as { action_id: string; execution: { status: string; verified_by?: string }; resource: { state: string; state_version: unknown } };
    expect(result.execution).toMatchObject({ status: 'confirmed', verified_by: 'site_contract' });
    expect(result.resource.state).toBe('cancelled');
    expect(await cancellations(sites.urls.shop)).toBe(1);

    // The same key again: the same result, and still one cancellation on the shop.
    const again = await client.call('steward_execute', cancel);
    expect(payloadOf(again)).toMatchObject({ action_id: result.action_id, execution: { status: 'confirmed' } });
    expect(await cancellations(sites.urls.shop)).toBe(1);
  });
});
