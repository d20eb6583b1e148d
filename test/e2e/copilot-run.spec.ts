import type { Page } from '@playwright/test';
import { DEMO_MODEL, startDemoModel } from '../../sites/model/demo-model.ts';
import type { ChatRequestBody, ScriptedModel } from '../../sites/model/scripted-server.ts';
import { test, expect } from '../harness/fixtures.ts';
import { MODEL_KEY, configureCopilot, refIn, runOf, startModel, startRun, waitForRun, type Run } from '../harness/copilot-helpers.ts';
import { approvalOf, cancelRequests, control, data, killServiceWorker, liveWorker, shopOrderPage, shopState, type Card } from '../harness/pipeline-helpers.ts';

/**
 * The co-pilot end to end, in real Chromium: the run lives in the service worker, the model is a
 * local scripted OpenAI-compatible server (the only fake), the person's approvals are decided over
 * the panel channel as the Co-pilot view sends them, and the demo shop's own records say what
 * happened.
 */

const GOAL = 'Cancel order ORD-1024, I ordered it by mistake.';

const act = (name: string, input: Record<string, unknown>, thought: string) => JSON.stringify({ kind: 'act', thought, action: { name, input }, expect: 'the order is cancelled' });
const done = JSON.stringify({ kind: 'done', thought: 'The page says the order was cancelled.', claim: 'Order ORD-1024 is cancelled.' });

/** The legacy shop has no contract and no WebMCP: choose the reason, then press Cancel order. */
function domCancelScript(): Array<(body: ChatRequestBody) => string> {
  return [
    (body) => act('dom.select', { ref: refIn(body, 'combobox', 'Reason for cancelling'), values: ['Ordered by mistake'] }, 'Choose the reason first.'),
    (body) => act('dom.click', { ref: refIn(body, 'button', 'Cancel order') }, 'Submit the cancellation.'),
    () => done,
  ];
}

/** A step of the run that waits for a card not decided yet. */
const waitingStep = (run: Run, decided: ReadonlySet<string>) => run.steps.find((s) => s.status === 'awaiting_approval' && s.approval_id && !decided.has(s.approval_id));

/** Waits until the run ends or waits for a new card, and approves that card as the person does in the panel. */
/** A card as the panel lists it, with the form values a submit would send. */
type FormCard = Card & { form?: { fields: Array<{ ref: string; name: string; value?: string }> } };

async function approveNext(panel: Page, runId: string, decided: Set<string>, approved: FormCard[] = []): Promise<Run> {
  const run = await waitForRun(panel, runId, (r) => r.end !== undefined || waitingStep(r, decided) !== undefined);
  const step = waitingStep(run, decided);
  if (!step) return run;
  const { pending } = await data<{ pending: FormCard[] }>(control(panel, { type: 'panel/approvals' }));
  const card = pending.find((c) => c.request_id === step.approval_id);
  expect(card, 'the step’s approval id names a pending card').toBeDefined();
  expect(await data(control(panel, approvalOf(card!)))).toMatchObject({ status: 'approved' });
  decided.add(card!.request_id);
  approved.push(card!);
  return run;
}

/** Approves every card of the run until it ends; returns the run and how many cards there were. */
async function approveUntilEnd(panel: Page, runId: string, decided = new Set<string>()): Promise<{ run: Run; approvals: number; cards: FormCard[] }> {
  const before = decided.size;
  const cards: FormCard[] = [];
  for (;;) {
    const run = await approveNext(panel, runId, decided, cards);
    if (run.end) return { run, approvals: decided.size - before, cards };
  }
}

async function cancellations(shopUrl: string): Promise<number> {
  return cancelRequests(await shopState(shopUrl), 'ORD-1024').length;
}

async function withModel(use: (model: ScriptedModel) => Promise<void>): Promise<void> {
  const model = await startModel();
  try {
    await use(model);
  } finally {
    await model.stop();
  }
}

test('the co-pilot cancels ORD-1024 on the legacy shop through DOM steps, with the approval decided in the panel', async ({ steward, sites, openPanel, tabIdOf }) => {
  await withModel(async (model) => {
    const page = await shopOrderPage(steward.context, sites.urls.shop!);
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    await configureCopilot(panel, model);
    model.script(domCancelScript());

    const started = await startRun(panel, tabId, GOAL);
    expect(started).toMatchObject({ status: 'running', tabId, origin: new URL(sites.urls.shop!).origin });
    const { run, approvals, cards } = await approveUntilEnd(panel, started.run_id);

    expect(run.end, JSON.stringify(run, null, 1)).toMatchObject({ kind: 'done', verified: true });
    expect(run.status).toBe('finished');
    // Choosing the reason only edits the form: the one card is the submit's, and it shows the reason it sends.
    expect(approvals).toBe(1);
    expect(cards[0]).toMatchObject({ action: 'dom.click', reasons: expect.arrayContaining([expect.objectContaining({ code: 'form_submission' })]) });
    expect(cards[0]!.form?.fields).toContainEqual(expect.objectContaining({ name: 'Reason for cancelling', value: 'Ordered by mistake' }));
    expect(run.steps.map((s) => s.action?.name).filter(Boolean)).toEqual(['dom.select', 'dom.click']);
    expect(await cancellations(sites.urls.shop!)).toBe(1);
    expect((await shopState(sites.urls.shop!)).orders.find((o) => o.id === 'ORD-1024')?.status).toBe('cancelled');
    await expect(page.locator('#status-note')).toContainText('Ordered by mistake');

    // The run's audit entries are those of its own agent; its token is revoked now that it ended.
    const { entries } = await data<{ entries: Array<{ agent_id?: string }> }>(control(panel, { type: 'panel/audit' }));
    expect(entries.some((e) => e.agent_id === run.agent_id)).toBe(true);
    const { tokens } = await data<{ tokens: Array<{ token: { token_id: string }; status: string }> }>(control(panel, { type: 'panel/tokens', agent_id: run.agent_id }));
    expect(tokens).toEqual([expect.objectContaining({ token: expect.objectContaining({ token_id: run.token_id }), status: 'revoked' })]);
    // Neither the key nor the token's secret ever reaches the panel.
    const pushedAndListed = JSON.stringify(await data(control(panel, { type: 'copilot/runs' })));
    expect(pushedAndListed).not.toContain(MODEL_KEY);
    expect(pushedAndListed).not.toMatch(/stw_secret_/);
    expect(JSON.stringify(await data(control(panel, { type: 'panel/audit-export' })))).not.toContain(MODEL_KEY);
  });
});

test('npm start’s demo model cancels ORD-1024 with one approval, through the shop adapter’s orders.cancel', async ({ steward, sites, openPanel, tabIdOf }) => {
  const model = await startDemoModel();
  try {
    const page = await shopOrderPage(steward.context, sites.urls.shop!);
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    await configureCopilot(panel, model, { model: DEMO_MODEL });

    const started = await startRun(panel, tabId, GOAL);
    const { run, approvals, cards } = await approveUntilEnd(panel, started.run_id);

    expect(run.end, JSON.stringify(run, null, 1)).toMatchObject({ kind: 'done', verified: true });
    expect(approvals).toBe(1);
    expect(cards[0]).toMatchObject({ action: 'orders.cancel' });
    expect(run.steps.map((s) => s.action?.name).filter(Boolean)).toEqual(['orders.cancel']);
    expect(await cancellations(sites.urls.shop!)).toBe(1);
    await expect(page.locator('#status-note')).toContainText('Ordered by mistake');
  } finally {
    await model.stop();
  }
});

test('a worker killed while the step waits for approval resumes the run, and the order is cancelled exactly once', async ({ steward, sites, openPanel, tabIdOf }) => {
  await withModel(async (model) => {
    const page = await shopOrderPage(steward.context, sites.urls.shop!);
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    await configureCopilot(panel, model);
    model.script(domCancelScript());
    const started = await startRun(panel, tabId, GOAL);

    // The worker is killed while the cancel's card waits (choosing the reason needs none).
    const decided = new Set<string>();
    for (;;) {
      const run = await waitForRun(panel, started.run_id, (r) => r.end !== undefined || waitingStep(r, decided) !== undefined);
      expect(run.end).toBeUndefined();
      if (waitingStep(run, decided)?.action?.name === 'dom.click') break;
      await approveNext(panel, started.run_id, decided);
    }
    expect(decided.size).toBe(0);
    expect(await runOf(panel, started.run_id)).toMatchObject({ status: 'awaiting_approval' });
    const modelCallsBefore = model.requests.length;
    const killedAt = Date.now();
    await killServiceWorker(panel, steward.serviceWorker);
    await liveWorker(steward.context, steward.extensionId, killedAt);

    const { run, approvals } = await approveUntilEnd(panel, started.run_id, decided);
    expect(approvals).toBe(1);
    expect(run.end).toMatchObject({ kind: 'done', verified: true });
    expect(await cancellations(sites.urls.shop!)).toBe(1);
    // The click under way was resubmitted with its key, not asked of the model again: one more call, for "done".
    expect(model.requests.length).toBe(modelCallsBefore + 1);
    expect(run.steps.filter((s) => s.action?.name === 'dom.click')).toHaveLength(1);
  });
});

test('closing the side panel does not stop the run: it goes on in the worker and finishes once the person approves', async ({ steward, sites, openPanel, tabIdOf }) => {
  await withModel(async (model) => {
    const page = await shopOrderPage(steward.context, sites.urls.shop!);
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    await configureCopilot(panel, model);
    // A read needs no approval: the first step runs with no panel open.
    const read = (body: ChatRequestBody) => JSON.stringify({ kind: 'read', thought: 'Look at the cancel button first.', ref: refIn(body, 'button', 'Cancel order') });
    model.script([read, ...domCancelScript()]);
    const started = await startRun(panel, tabId, GOAL);
    await panel.close();

    // With no panel open, the worker keeps asking the model (the read's result goes into the next prompt).
    await expect.poll(() => model.requests.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);

    const again = await steward.context.newPage();
    await again.goto(`chrome-extension://${steward.extensionId}/src/sidepanel/index.html?tabId=${tabId}`);
    const { run } = await approveUntilEnd(again, started.run_id);
    expect(run.end).toMatchObject({ kind: 'done', verified: true });
    expect(run.steps[0]).toMatchObject({ status: 'succeeded', thought: 'Look at the cancel button first.' });
    expect(await cancellations(sites.urls.shop!)).toBe(1);
  });
});
