import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { approvalOf, control, data, killServiceWorker, liveWorker, mint, observe, shopOrderPage, submit, type Card } from '../harness/pipeline-helpers.ts';

/**
 * Issue 11, items 1–3: an approval covers exactly what runs. Each test is the hostile agent's
 * move: reuse an approval of a harmless click for a destructive one; change a form's value after
 * its submit was approved; hide a field of its input behind padding. The shop's own records say
 * what was really sent.
 */

const DRIPPER = 'CER-DRIP-01';

interface Observed {
  resource: { type: string; id: string };
  elements: Array<{ ref: string; role: string; name: string }>;
  forms: Array<{ ref: string; submit_ref?: string; fields: Array<{ ref: string; name: string }> }>;
}

interface ShopOrders {
  orders: Array<{ id: string; status: string; items: Array<{ sku: string; quantity: number }> }>;
  counters: Record<string, { cancelled: number; quantity_changes: number }>;
}

async function shopOrders(shopUrl: string): Promise<ShopOrders> {
  return (await (await fetch(new URL('/__demo/state', shopUrl))).json()) as ShopOrders;
}

const dripperQuantity = async (shopUrl: string) => (await shopOrders(shopUrl)).orders.find((o) => o.id === 'ORD-1024')!.items.find((i) => i.sku === DRIPPER)!.quantity;

/** The shop's order page, the panel, a token for DOM actions, and the refs the agent would use. */
async function shopForDomActions({
  steward,
  sites,
  openPanel,
  tabIdOf,
}: {
  steward: { context: import('@playwright/test').BrowserContext };
  sites: { urls: { shop: string } };
  openPanel: (p: Page) => Promise<Page>;
  tabIdOf: (p: Page) => Promise<number>;
}) {
  const page = await shopOrderPage(steward.context, sites.urls.shop);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  const token = await mint(panel, { scope: ['dom:click', 'dom:type', 'dom:select'], resource_scope: 'order:ORD-1024', origins: [new URL(sites.urls.shop).origin] });
  const observed = (await observe(panel, tabId)) as unknown as Observed;
  const named = (name: string | RegExp) => {
    const e = observed.elements.find((x) => (typeof name === 'string' ? x.name === name : name.test(x.name)));
    if (!e) throw new Error(`no element named ${String(name)}`);
    return e.ref;
  };
  const quantity = named(/^Quantity of Ceramic pour-over dripper/);
  const update = observed.forms.find((f) => f.fields.some((x) => x.ref === quantity))!.submit_ref!;
  return { page, panel, tabId, token, resource: observed.resource, quantity, update, cancel: named('Cancel order'), reason: named('Reason for cancelling') };
}

async function pending(panel: Page, action: string): Promise<Card & { window?: { offered: boolean; why_not?: string }; form?: { fields: Array<{ ref: string; value?: string }> } }> {
  let card: Card | undefined;
  await expect
    .poll(async () => {
      card = (await data<{ pending: Card[] }>(control(panel, { type: 'panel/approvals' }))).pending.find((c) => c.action === action);
      return card !== undefined;
    })
    .toBe(true);
  return card as never;
}

const decide = (panel: Page, card: Card, window_ms?: number) =>
  control(panel, {
    ...approvalOf(card),
    ...(window_ms ? { window_ms } : {}),
  });

async function showApprovals(panel: Page) {
  await panel.getByRole('tab', { name: /^Approvals/ }).click();
}

/** Every receipt the service worker holds, newest last. */
async function receipts(worker: import('@playwright/test').Worker) {
  return (
    await worker.evaluate(
      () =>
        new Promise<Array<{ receipt: { receipt_id: string; issued_at: string }; mode: string }>>((resolve) => {
          const open = indexedDB.open('steward');
          open.onsuccess = () => {
            const req = open.result.transaction('receipts').objectStore('receipts').getAll();
            req.onsuccess = () => resolve(req.result as never);
          };
        }),
    )
  ).sort((a, b) => a.receipt.issued_at.localeCompare(b.receipt.issued_at));
}

test('a window asked for on a harmless “Update” click does not let the agent press “Cancel order”', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await shopForDomActions({ steward, sites, openPanel, tabIdOf });
  const { panel, tabId, token, resource } = fx;
  const updating = submit(panel, { token, tabId, request: { action: 'dom.click', resource, input: { ref: fx.update }, idempotency_key: 'e2e-update' } });
  const card = await pending(panel, 'dom.click');
  // The person asks for 15 minutes (what “Approve for 15 minutes” sends); where Steward refuses a
  // window, the person approves this one click.
  const windowed = await decide(panel, card, 15 * 60_000);
  if (!windowed.ok) expect(await decide(panel, card)).toMatchObject({ ok: true });
  await data(updating);
  const [receipt] = (await receipts(steward.serviceWorker)).slice(-1);

  // The agent picks a reason (read-only) and presents the receipt for “Cancel order”.
  const fresh = (await observe(panel, tabId)) as unknown as Observed;
  const reason = fresh.elements.find((e) => e.name === 'Reason for cancelling')!.ref;
  const cancel = fresh.elements.find((e) => e.name === 'Cancel order')!.ref;
  await data(submit(panel, { token, tabId, request: { action: 'dom.select', resource, input: { ref: reason, values: ['ordered_by_mistake'] }, idempotency_key: 'e2e-reason' } }));
  const cancelled = (
    await data(
      submit(panel, { token, tabId, request: { action: 'dom.click', resource, input: { ref: cancel }, idempotency_key: 'e2e-cancel', approval: { receipt_id: receipt!.receipt.receipt_id } } }),
    )
  ).result;
  const shop = await shopOrders(sites.urls.shop);
  expect(shop.counters['ORD-1024']!.cancelled).toBe(0);
  expect(shop.orders.find((o) => o.id === 'ORD-1024')!.status).toBe('awaiting_payment');
  expect(cancelled).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
  // No window was ever issued for a DOM action.
  expect(JSON.stringify(windowed)).toContain('cannot be approved for a period');
  expect((await receipts(steward.serviceWorker)).map((r) => r.mode)).toEqual(['exact']);
});

test('a DOM click’s card offers no window and says why', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await shopForDomActions({ steward, sites, openPanel, tabIdOf });
  const { panel, tabId, token, resource } = fx;
  const queued = (await data(submit(panel, { token, tabId, request: { action: 'dom.click', resource, input: { ref: fx.update }, idempotency_key: 'e2e-update-card' }, wait_for_approval: false })))
    .result;
  expect(queued).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
  await showApprovals(panel);
  const article = panel.getByRole('article', { name: /^Press button “.+” \(order ORD-1024\) on / });
  await expect(article).toBeVisible();
  await expect(article.getByRole('button', { name: /^Approve for/ })).toHaveCount(0);
  await expect(article).toContainText('No “approve for a period” here: DOM and navigation actions are approved one at a time');
  await expect(article.getByRole('button', { name: 'Approve', exact: true })).toBeEnabled();
});

test('the page content an action returns taints the co-pilot — it never said so — and the mark survives a service-worker restart', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await shopForDomActions({ steward, sites, openPanel, tabIdOf });
  const { panel, tabId, token, resource } = fx;
  const taint = (worker: import('@playwright/test').Worker) =>
    worker.evaluate(async () => (await chrome.storage.local.get('pipeline.taint'))['pipeline.taint'] as Record<string, { source: string }> | undefined);
  expect(await taint(steward.serviceWorker)).toBeUndefined();
  // A read-only action (no approval), submitted without any untrusted_input claim.
  await data(submit(panel, { token, tabId, request: { action: 'dom.type', resource, input: { ref: fx.quantity, text: '2', clear: true }, idempotency_key: 'e2e-taint-type' } }));
  expect(await taint(steward.serviceWorker)).toMatchObject({ 'agent:copilot': { source: expect.stringContaining('/orders/ORD-1024') } });

  const killedAt = Date.now();
  await killServiceWorker(panel, steward.serviceWorker);
  const worker = await liveWorker(steward.context, steward.extensionId, killedAt);
  expect(await taint(worker)).toMatchObject({ 'agent:copilot': {} });
  // The next consequential action says so on its card.
  const queued = (await data(submit(panel, { token, tabId, request: { action: 'dom.click', resource, input: { ref: fx.cancel }, idempotency_key: 'e2e-taint-click' }, wait_for_approval: false })))
    .result;
  expect(queued).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { reasons: expect.arrayContaining(['untrusted_input']) } } });
});

test('a submit approved with the quantity at 4 sends 4: the 17 typed after the card appeared is refused', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await shopForDomActions({ steward, sites, openPanel, tabIdOf });
  const { page, panel, tabId, token, resource } = fx;
  const type = (text: string, key: string) => data(submit(panel, { token, tabId, request: { action: 'dom.type', resource, input: { ref: fx.quantity, text, clear: true }, idempotency_key: key } }));
  expect((await type('4', 'e2e-type-4')).result).toMatchObject({ execution: { status: 'confirmed' } });
  const updating = submit(panel, { token, tabId, request: { action: 'dom.click', resource, input: { ref: fx.update }, idempotency_key: 'e2e-update-4' } });
  const card = await pending(panel, 'dom.click');

  // The hostile agent changes the amount while the person reads the card, then the person approves.
  const sneaky = (await type('17', 'e2e-type-17')).result;
  expect(await decide(panel, card)).toMatchObject({ ok: true });
  await data(updating);
  await expect.poll(() => shopOrders(sites.urls.shop).then((s) => s.counters['ORD-1024']!.quantity_changes)).toBe(1);
  expect(await dripperQuantity(sites.urls.shop)).toBe(4);
  expect(sneaky).toMatchObject({ error: { code: 'IN_PROGRESS', retryable: true, details: { approval_request_id: card.request_id } } });
  await expect(page.locator(`#qty-${DRIPPER}`)).toHaveValue('4');
});

test('a value changed by anything else while the card waited voids the approval: nothing is submitted', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await shopForDomActions({ steward, sites, openPanel, tabIdOf });
  const { page, panel, tabId, token, resource } = fx;
  await data(submit(panel, { token, tabId, request: { action: 'dom.type', resource, input: { ref: fx.quantity, text: '4', clear: true }, idempotency_key: 'e2e-p-type-4' } }));
  const updating = submit(panel, { token, tabId, request: { action: 'dom.click', resource, input: { ref: fx.update }, idempotency_key: 'e2e-p-update' } });
  const card = await pending(panel, 'dom.click');
  // The card shows what the form would send.
  await showApprovals(panel);
  const article = panel.getByRole('article', { name: /^Press button “.+” \(order ORD-1024\) on / });
  // On the card's face, among the values it will send; and in full under Details.
  await expect(article.getByRole('list', { name: 'What to weigh' })).toContainText(/Quantity of Ceramic pour-over dripper\s*4(?!\d)/);
  await article.getByText('Details', { exact: true }).click();
  const values = article.getByRole('table', { name: /^Values of form/ });
  await expect(values.getByRole('row', { name: /Quantity of Ceramic pour-over dripper/ })).toContainText('4');
  // The page (or anything else outside this session) sets 17 after the card appeared.
  await page.locator(`#qty-${DRIPPER}`).fill('17');
  expect(await decide(panel, card)).toMatchObject({ ok: true });
  expect((await data(updating)).result).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'form_changed' } } });
  const shop = await shopOrders(sites.urls.shop);
  expect(shop.counters['ORD-1024']!.quantity_changes).toBe(0);
  expect(await dripperQuantity(sites.urls.shop)).toBe(1);
});

test('the content script clicks only while the form holds the approved values', async ({ steward, sites, tabIdOf }) => {
  const page = await shopOrderPage(steward.context, sites.urls.shop);
  const tabId = await tabIdOf(page);
  const snap = (await steward.serviceWorker.evaluate(
    (tabId) => (globalThis as unknown as { stewardObservation: { observeTab: (t: number) => Promise<unknown> } }).stewardObservation.observeTab(tabId),
    tabId,
  )) as { data: { documentToken: string; elements: Array<{ ref: string; name: string }>; forms: Array<{ fieldRefs: string[]; submitRef?: string }> } };
  const quantity = snap.data.elements.find((e) => e.name.startsWith('Quantity of Ceramic'))!.ref;
  const update = snap.data.forms.find((f) => f.fieldRefs.includes(quantity))!.submitRef!;
  const act = (value: string) =>
    steward.serviceWorker.evaluate(([tabId, steps, documentToken]) => chrome.tabs.sendMessage(tabId, { type: 'content/act', steps, documentToken }, { frameId: 0 }), [
      tabId,
      [{ op: 'click', ref: update, form: [{ ref: quantity, value }, { ref: update }] }],
      snap.data.documentToken,
    ] as const) as Promise<{ data: { steps: Array<{ status: string; code?: string; message_said?: unknown }> } }>;
  // The page changed the field to 17 after the approval of 1: refused, nothing submitted.
  await page.locator(`#qty-${DRIPPER}`).fill('17');
  // Said as data too, for the person: the field that no longer holds what was approved, named as the observation names it.
  const field = snap.data.elements.find((e) => e.ref === quantity)!;
  expect((await act('1')).data.steps[0]).toMatchObject({
    status: 'refused',
    code: 'FORM_CHANGED',
    message_said: { code: 'act_refused', params: { reason: 'form_changed', name: field.name } },
  });
  expect((await shopOrders(sites.urls.shop)).counters['ORD-1024']!.quantity_changes).toBe(0);
  // With the value the person approved, it clicks.
  expect((await act('17')).data.steps[0]).toMatchObject({ status: 'done' });
  await expect.poll(() => dripperQuantity(sites.urls.shop)).toBe(17);
});

test('the card shows a long, nested input in full: every field in its own row, nothing cut', async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.clinic}#/appointments`);
  await expect(page.locator('#appointments-body')).toContainText('APT-1001');
  // The page offers a tool with an open schema (any page may).
  await page.evaluate(() => {
    const mc = (document as unknown as { modelContext: { registerTool: (t: unknown) => unknown } }).modelContext;
    void mc.registerTool({ name: 'send_note', description: 'Sends a note.', inputSchema: { type: 'object' }, execute: async () => ({ content: [{ type: 'text', text: 'sent' }] }) });
  });
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  const token = await mint(panel, { scope: ['webmcp:send_note'], resource_scope: 'page:*', origins: [new URL(sites.urls.clinic).origin] });
  let observed = await observe(panel, tabId);
  await expect.poll(async () => (observed = await observe(panel, tabId)).available_actions).toContain('send_note');
  const tail = 'END-OF-LONG-TEXT';
  const input = { note: `${'x'.repeat(3000)}${tail}`, payload: { pad: ' '.repeat(2000), order: { amount: 17, to: 'attacker@example.test' } } };
  const queued = (await data(submit(panel, { token, tabId, request: { action: 'send_note', resource: observed.resource, input, idempotency_key: 'e2e-long' }, wait_for_approval: false }))).result;
  expect(queued).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
  await pending(panel, 'send_note');
  await showApprovals(panel);
  const article = panel.getByRole('article', { name: /^Send note on / });
  // The card's face lists every field it will send, nothing cut; Details holds the exact input table.
  await expect(article.getByRole('list', { name: 'What to weigh' })).toContainText('attacker@example.test');
  await expect(article.getByRole('region', { name: /^Note, 3016 characters/ })).toHaveText(input.note);
  await article.getByText('Details', { exact: true }).click();
  const table = article.getByRole('table', { name: 'Input of send_note' });
  await expect(table.getByRole('row', { name: 'payload.order.amount' })).toContainText('17');
  await expect(table.getByRole('row', { name: 'payload.order.to' })).toContainText('attacker@example.test');
  const note = table.getByRole('region', { name: /^note, 3016 characters/ });
  await expect(note).toHaveText(input.note);
  // It scrolls to the end (keyboard too: the box takes focus).
  await note.focus();
  await note.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(note).toBeFocused();
  await expect(table).not.toContainText('characters)');
});
