import type { Page, Worker } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { control, data, mint, observe, shopOrderPage, shopState, submit } from '../harness/pipeline-helpers.ts';

/**
 * The legacy path's executor (src/content/act/): a ref is re-resolved through the observation
 * engine's registry and re-checked — visible, enabled, on top at its centre — at the moment of
 * acting; hidden fields are never typed into; what happened is reported precisely.
 */

interface SnapElement {
  ref: string;
  name: string;
  role: string;
  visibility: string;
}

/** The tab's raw snapshot, as the service worker gets it from the observation engine. */
async function snapshot(worker: Worker, tabId: number): Promise<{ documentToken: string; elements: SnapElement[] }> {
  const r = (await worker.evaluate((tabId) => (globalThis as unknown as { stewardObservation: { observeTab: (t: number) => Promise<unknown> } }).stewardObservation.observeTab(tabId), tabId)) as {
    ok: true;
    data: { documentToken: string; elements: SnapElement[] };
  };
  expect(r.ok).toBe(true);
  return r.data;
}

/** Sends DOM steps to the tab exactly as the pipeline's executors do. */
function act(worker: Worker, tabId: number, steps: unknown[], documentToken?: string) {
  return worker.evaluate(([tabId, steps, documentToken]) => chrome.tabs.sendMessage(tabId, { type: 'content/act', steps, ...(documentToken ? { documentToken } : {}) }, { frameId: 0 }), [
    tabId,
    steps,
    documentToken,
  ] as const) as Promise<{ ok: boolean; data: { steps: Array<{ status: string; code?: string; message: string; message_said?: unknown; value?: string }> } }>;
}

const refOf = (elements: SnapElement[], name: string) => {
  const e = elements.find((x) => x.name === name);
  if (!e) throw new Error(`no element named ${name}`);
  return e.ref;
};

async function recordClicks(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __clicks: string[] };
    w.__clicks = [];
    document.addEventListener('click', (e) => w.__clicks.push((e.target as Element).id), true);
  });
  return () => page.evaluate(() => (window as unknown as { __clicks: string[] }).__clicks);
}

test('the content executor re-checks every ref when it acts and says exactly why it refuses', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.lab}/visibility`);
  const tabId = await tabIdOf(page);
  const clicks = await recordClicks(page);
  const { documentToken, elements } = await snapshot(steward.serviceWorker, tabId);

  const one = async (step: Record<string, unknown>) => (await act(steward.serviceWorker, tabId, [step], documentToken)).data.steps[0]!;
  expect(await one({ op: 'click', ref: refOf(elements, 'Covered action') })).toMatchObject({ status: 'refused', code: 'COVERED', message: expect.stringContaining('overlay') });
  expect(await one({ op: 'click', ref: refOf(elements, 'Disabled action') })).toMatchObject({ status: 'refused', code: 'DISABLED' });
  expect(await one({ op: 'click', ref: refOf(elements, 'Visibility hidden action') })).toMatchObject({ status: 'refused', code: 'NOT_VISIBLE' });
  expect(await one({ op: 'click', ref: refOf(elements, 'Zero size action') })).toMatchObject({ status: 'refused', code: 'NOT_VISIBLE' });
  expect(await one({ op: 'click', ref: refOf(elements, 'Offscreen action') })).toMatchObject({ status: 'refused', code: 'OUTSIDE_VIEWPORT' });
  expect(await one({ op: 'click', ref: 'e99999' })).toMatchObject({ status: 'refused', code: 'REF_NOT_FOUND' });
  expect(await clicks()).toEqual([]);
  // Each refusal also as data the side panel says in the person's language: why, and the control as the observation names it.
  const saidOf = async (name: string) => (await one({ op: 'click', ref: refOf(elements, name) })).message_said;
  const about = (reason: string, name?: string) => ({ code: 'act_refused', params: { reason, ...(name ? { role: 'button', name } : {}) } });
  expect(await saidOf('Covered action')).toMatchObject({ code: 'act_refused', params: { reason: 'covered', role: 'button', name: 'Covered action', cover_role: expect.any(String) } });
  expect(await saidOf('Disabled action')).toEqual(about('disabled', 'Disabled action'));
  expect(await saidOf('Visibility hidden action')).toEqual(about('hidden', 'Visibility hidden action'));
  expect(await saidOf('Offscreen action')).toEqual(about('offscreen', 'Offscreen action'));
  expect((await one({ op: 'click', ref: 'e99999' })).message_said).toEqual(about('gone'));

  // Below the fold is not hidden: it is scrolled into view, as a person would, and clicked.
  expect(await one({ op: 'click', ref: refOf(elements, 'Below the fold action') })).toMatchObject({ status: 'done', message: expect.stringContaining('clicked') });
  expect(await clicks()).toEqual(['below-fold-button']);

  // Refs belong to one document: after a reload they are refused, never guessed.
  await page.reload();
  await tabIdOf(page);
  const stale = await act(steward.serviceWorker, tabId, [{ op: 'click', ref: refOf(elements, 'Visible action') }], documentToken);
  expect(stale.data.steps[0]).toMatchObject({ status: 'refused', code: 'STALE_DOCUMENT', message_said: { code: 'act_refused', params: { reason: 'stale_document' } } });
});

test('elements of a same-origin iframe are acted on through the top frame’s refs, with the same checks', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.lab}/frames`);
  const inner = page.frameLocator('#same-origin-frame');
  await expect(inner.locator('#inner-input')).toBeVisible();
  const tabId = await tabIdOf(page);
  const { documentToken, elements } = await snapshot(steward.serviceWorker, tabId);
  const note = elements.filter((e) => e.name === 'Frame note');
  expect(note.length).toBeGreaterThanOrEqual(1);
  const r = await act(steward.serviceWorker, tabId, [{ op: 'type', ref: note[0]!.ref, text: 'from Steward', clear: true }], documentToken);
  expect(r.data.steps[0]).toMatchObject({ status: 'done', value: 'from Steward' });
  await expect(inner.locator('#inner-input')).toHaveValue('from Steward');
});

test('typing and selecting set real values; hidden fields are never typed into', async ({ steward, sites, tabIdOf }) => {
  const page = await shopOrderPage(steward.context, sites.urls.shop);
  const tabId = await tabIdOf(page);
  const { documentToken, elements } = await snapshot(steward.serviceWorker, tabId);
  const quantity = refOf(elements, 'Quantity');
  const product = refOf(elements, 'Add a product');

  // The page sees a person's input: an input event and the value through its own property.
  await page.evaluate(() => {
    const w = window as unknown as { __inputs: string[] };
    w.__inputs = [];
    document.getElementById('add-quantity')!.addEventListener('input', (e) => w.__inputs.push((e.target as HTMLInputElement).value));
  });
  const typed = await act(
    steward.serviceWorker,
    tabId,
    [
      { op: 'type', ref: quantity, text: '4', clear: true },
      { op: 'select', ref: product, values: ['Gooseneck kettle — $39.00'] },
    ],
    documentToken,
  );
  expect(typed.data.steps).toMatchObject([
    { status: 'done', value: '4' },
    { status: 'done', value: 'KTL-GOOSE' },
  ]);
  await expect(page.locator('#add-quantity')).toHaveValue('4');
  await expect(page.locator('#add-sku')).toHaveValue('KTL-GOOSE');
  expect(await page.evaluate(() => (window as unknown as { __inputs: string[] }).__inputs)).toEqual(['4']);

  // A field hidden after the observation is refused; so is an option that does not exist.
  await page.evaluate(() => (document.getElementById('add-quantity')!.style.display = 'none'));
  const hidden = await act(steward.serviceWorker, tabId, [{ op: 'type', ref: quantity, text: '9', clear: true }], documentToken);
  expect(hidden.data.steps[0]).toMatchObject({ status: 'refused', code: 'HIDDEN_FIELD' });
  await expect(page.locator('#add-quantity')).toHaveValue('4');
  const noOption = await act(steward.serviceWorker, tabId, [{ op: 'select', ref: product, values: ['A yacht'] }], documentToken);
  expect(noOption.data.steps[0]).toMatchObject({
    status: 'refused',
    code: 'OPTION_NOT_FOUND',
    message_said: { code: 'act_refused', params: { reason: 'no_option', name: 'Add a product', option: 'A yacht' } },
  });
  // Nothing was submitted to the shop by any of it.
  expect((await shopState(sites.urls.shop)).requests.filter((r) => r.method === 'POST')).toHaveLength(0);
});

test('a disabled option, a focus that moved and a drop point off the page are refused untouched, each said as data for the person', async ({ steward, sites, tabIdOf }) => {
  const page = await shopOrderPage(steward.context, sites.urls.shop);
  const tabId = await tabIdOf(page);
  const { documentToken, elements } = await snapshot(steward.serviceWorker, tabId);
  const [quantity, product] = ['Quantity', 'Add a product'].map((name) => elements.find((e) => e.name === name)!);
  const one = async (step: Record<string, unknown>) => (await act(steward.serviceWorker, tabId, [step], documentToken)).data.steps[0]!;
  const about = (reason: string, e: SnapElement, extra: Record<string, string> = {}) => ({ code: 'act_refused', params: { reason, role: e.role, name: e.name, ...extra } });

  // The page disables the kettle after the observation: choosing it is refused, the choice unchanged.
  await page.evaluate(() => [...document.querySelectorAll<HTMLOptionElement>('#add-sku option')].find((o) => o.value === 'KTL-GOOSE')!.setAttribute('disabled', ''));
  const before = await page.locator('#add-sku').inputValue();
  expect(await one({ op: 'select', ref: product!.ref, values: ['Gooseneck kettle — $39.00'] })).toMatchObject({
    status: 'refused',
    code: 'DISABLED',
    message_said: about('option_disabled', product!, { option: 'Gooseneck kettle — $39.00' }),
  });
  await expect(page.locator('#add-sku')).toHaveValue(before);

  // A key meant for the Quantity field while the focus is on the product list: nothing is pressed.
  await page.locator('#add-quantity').focus();
  await page.locator('#add-sku').focus();
  expect(await one({ op: 'press', key: 'Tab', focused: quantity!.ref })).toMatchObject({ status: 'refused', code: 'FOCUS_MOVED', message_said: about('focus_moved', quantity!) });
  await expect(page.locator('#add-sku')).toBeFocused();

  // A drop point far off the visible page: nothing is dragged.
  expect(await one({ op: 'drag', ref: quantity!.ref, offset: { x: 20_000, y: 0 } })).toMatchObject({ status: 'refused', code: 'OUTSIDE_VIEWPORT', message_said: about('drop_offscreen', quantity!) });
  expect((await shopState(sites.urls.shop)).requests.filter((r) => r.method === 'POST')).toHaveLength(0);
});

test('dom.type through the pipeline runs without approval and is confirmed by the field’s new value; a covered control is refused naming what covers it', async ({
  steward,
  sites,
  openPanel,
  tabIdOf,
}) => {
  const shop = new URL(sites.urls.shop).origin;
  const page = await shopOrderPage(steward.context, sites.urls.shop);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  const token = await mint(panel, { scope: ['dom:type', 'dom:click'], resource_scope: 'order:ORD-1024', origins: [shop] });
  const observed = (await observe(panel, tabId)) as unknown as { resource: { type: string; id: string }; elements: SnapElement[] };
  const quantity = refOf(observed.elements, 'Quantity');

  const typed = (
    await data(submit(panel, { token, tabId, request: { action: 'dom.type', resource: observed.resource, input: { ref: quantity, text: '7', clear: true }, idempotency_key: 'e2e-dom-type' } }))
  ).result;
  expect(typed).toMatchObject({ execution: { status: 'confirmed', certainty: 'confirmed', verified_by: 'postcondition' }, source: 'legacy_inference' });
  await expect(page.locator('#add-quantity')).toHaveValue('7');
  expect(await data(control(panel, { type: 'panel/approvals' }))).toEqual({ pending: [] });

  // Cover the Quantity field with a banner: a covered control is still offered (the act scrolls it
  // clear and tries every sample point of its box), and refused at the moment of acting, naming the cover.
  await page.evaluate(() => {
    const b = document.getElementById('add-quantity')!.getBoundingClientRect();
    const cover = document.createElement('div');
    cover.id = 'cover';
    cover.setAttribute('role', 'banner');
    cover.setAttribute('aria-label', 'Cookie notice');
    Object.assign(cover.style, {
      position: 'absolute',
      left: `${b.left + scrollX - 4}px`,
      top: `${b.top + scrollY - 4}px`,
      width: `${b.width + 8}px`,
      height: `${b.height + 8}px`,
      background: '#000',
      zIndex: '10',
    });
    document.body.append(cover);
    document.getElementById('add-quantity')!.scrollIntoView({ block: 'center' });
  });
  const refused = (
    await data(submit(panel, { token, tabId, request: { action: 'dom.type', resource: observed.resource, input: { ref: quantity, text: '9', clear: true }, idempotency_key: 'e2e-dom-covered' } }))
  ).result;
  // Refused before dispatch when the observation names no cover; with a named cover, by the act itself, naming it.
  const error = (refused as { error: { code: string; message: string } }).error;
  if (error.code === 'EXECUTION_FAILED') {
    expect(error.message).toMatch(/COVERED.*covered by banner “Cookie notice”/);
    // Beside the English, the refusal as data the side panel says in the person's language.
    expect((refused as { error_said?: unknown }).error_said).toEqual({
      code: 'act_refused',
      params: { reason: 'covered', role: 'textbox', name: 'Quantity', cover_role: 'banner', cover_name: 'Cookie notice' },
    });
  } else expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('covered') });
  await expect(page.locator('#add-quantity')).toHaveValue('7');
  expect((await shopState(sites.urls.shop)).requests.filter((r) => r.method === 'POST')).toHaveLength(0);
});
