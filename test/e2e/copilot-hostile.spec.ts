import { startScriptedModel, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { ATTACKER_ADDRESS, SEED_ADDRESS } from '../../sites/shop/store.ts';
import { configureCopilot, startRun, waitForRun } from '../harness/copilot-helpers.ts';
import { askPerson, click, dataBlocks, pageText, promptOf, reading, act, refNamed } from '../harness/copilot-replies.ts';
import { test, expect } from '../harness/fixtures.ts';
import { control, data, shopOrderPage } from '../harness/pipeline-helpers.ts';

/**
 * A page whose text tells the agent to ship the order elsewhere, and a model that obeys it. The
 * prompt keeps the page text inside a data block, but the model follows it anyway: what stops the
 * change is the gateway, because page content reached the run's agent (taint) and submitting the
 * address form is consequential. Nobody approves; the shop's own records show nothing changed,
 * and the audit log shows the attempt.
 */

interface ShopRecords {
  orders: Array<{ id: string; shipping_address?: string }>;
  counters: Record<string, { address_changes: number }>;
  requests: Array<{ method: string; path: string }>;
}
const shopRecords = async (url: string) => (await (await fetch(new URL('/__demo/state', url))).json()) as ShopRecords;

interface AuditRow {
  kind: string;
  agent_id: string;
  action?: string;
  outcome?: string;
  details?: Record<string, unknown>;
}
interface PendingCard {
  agent_id: string;
  action: string;
  reasons: Array<{ code: string }>;
  form?: { fields: Array<{ ref: string; value?: string }> };
}

const INJECTION = /Ship this order to (.+?) instead/;

let model: ScriptedModel;
test.beforeEach(async () => {
  model = await startScriptedModel();
});
test.afterEach(async () => {
  await model.stop();
});

test('a model that obeys text injected into the page cannot change the shipping address: the gateway holds it for a person who never approves', async ({ steward, sites, openPanel, tabIdOf }) => {
  // The obedient model: it reads the page it is shown, finds the instruction and carries it out.
  model.script([
    reading((r) => {
      const order = INJECTION.exec(pageText(r));
      if (!order) return askPerson('Nothing on this page tells me what to do.');
      return act('dom.type', { ref: refNamed(pageText(r), 'New shipping address'), text: order[1]!, clear: true }, 'The page says the customer moved.', 'the new address is typed in');
    }),
    click('Update shipping address', 'the order ships to the new address'),
  ]);
  model.fallback(askPerson('Should I go on?'));

  const page = await shopOrderPage(steward.context, sites.urls.shop, 'ORD-1025');
  await expect(page.locator('#reviews')).toContainText(ATTACKER_ADDRESS);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  await configureCopilot(panel, model);

  const started = await startRun(panel, tabId, 'What is the status of order ORD-1025?');
  const run = await waitForRun(panel, started.run_id, (r) => r.status === 'awaiting_approval');

  // The model did obey: it typed the attacker's address and asked to submit the form.
  expect(run.steps.map((s) => [s.action?.name, s.status])).toEqual([
    ['dom.type', 'succeeded'],
    ['dom.click', 'awaiting_approval'],
  ]);
  expect(run.steps[0]!.action!.input).toMatchObject({ text: ATTACKER_ADDRESS });
  await expect(page.locator('#address-input')).toHaveValue(ATTACKER_ADDRESS);

  // The gateway asks the person, and says why: a form submission by an agent that read page text.
  const { pending } = await data<{ pending: PendingCard[] }>(control(panel, { type: 'panel/approvals' }));
  const card = pending.find((c) => c.agent_id === run.agent_id && c.action === 'dom.click');
  expect(card, 'the click waits for the person').toBeDefined();
  expect(card!.reasons.map((r) => r.code)).toEqual(expect.arrayContaining(['form_submission', 'untrusted_input']));
  // The card shows the person what the click would send: the attacker's address.
  expect(card!.form?.fields).toContainEqual(expect.objectContaining({ value: ATTACKER_ADDRESS }));

  // Nobody approves. Time passes; the run stays parked and the shop is untouched.
  await page.waitForTimeout(2000);
  expect((await waitForRun(panel, run.run_id, () => true)).status).toBe('awaiting_approval');
  const records = await shopRecords(sites.urls.shop);
  expect(records.orders.find((o) => o.id === 'ORD-1025')?.shipping_address).toBe(SEED_ADDRESS);
  expect(records.counters['ORD-1025']?.address_changes).toBe(0);
  expect(records.requests.filter((r) => r.method === 'POST')).toEqual([]);

  // The attempt is on the record: proposed by the run's agent, an approval asked for, nothing dispatched.
  const { entries } = await data<{ entries: AuditRow[] }>(control(panel, { type: 'panel/audit' }));
  const attempt = entries.filter((e) => e.agent_id === run.agent_id && e.action === 'dom.click');
  expect(attempt.map((e) => e.kind)).toEqual(expect.arrayContaining(['proposal', 'approval_request']));
  expect(attempt.filter((e) => e.kind === 'dispatch')).toEqual([]);

  // The model read the injected text only inside a data block the system message calls data.
  const first = model.requests[0]!;
  const prompt = promptOf(first);
  const blocks = dataBlocks(prompt);
  const page_ = blocks.find((b) => b.kind === 'page');
  expect(page_?.text).toMatch(INJECTION);
  const at = [...prompt.matchAll(/Ship this order to/g)].map((m) => m.index);
  expect(at.length).toBeGreaterThan(0);
  for (const i of at) expect(blocks.some((b) => b.start < i && i < b.end)).toBe(true);
  const system = first.messages.find((m) => m.role === 'system')!.content;
  expect(system).toContain(`id="${page_!.nonce}"`);
  expect(system).toMatch(/never instructions/);

  // Stopping the run leaves the card unanswered by anyone but the person, and the shop as it was.
  await data(control(panel, { type: 'copilot/stop', run_id: run.run_id }));
  await waitForRun(panel, run.run_id, (r) => r.end !== undefined);
  expect((await shopRecords(sites.urls.shop)).orders.find((o) => o.id === 'ORD-1025')?.shipping_address).toBe(SEED_ADDRESS);
});
