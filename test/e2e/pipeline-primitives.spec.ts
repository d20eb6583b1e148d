import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { approve, control, data, mint, observe, pendingCard, submit } from '../harness/pipeline-helpers.ts';

/**
 * The primitives beyond click and type (issue 26), driven as an agent drives them: observe, then
 * steward_execute-style requests through the pipeline. What the lab's server received is the
 * ground truth (sites/lab/act-pages.ts).
 */

interface ActState {
  submissions: Array<Record<string, string>>;
  slider: number[];
  orders: Array<{ list: string; order: string[] }>;
  toggles: Array<{ name: string; on: boolean }>;
  deleted: string[];
  dropped: string[];
}

interface Observed {
  resource: { type: string; id: string };
  state_version: string | number;
  url: string;
  elements: Array<{ ref: string; role: string; name: string; states: string[]; value?: string; visibility: string }>;
  forms?: Array<{ ref: string; fields: Array<{ ref: string; name: string }> }>;
}

type Result = Record<string, unknown> & {
  error?: { code: string; message: string; details?: Record<string, unknown> };
  execution?: { status: string; certainty: string };
  observed_changes?: {
    appeared?: { count: number; examples: Array<{ role: string; name: string }> };
    removed?: { count: number; examples: Array<{ role: string; name: string }> };
    requests?: Array<{ method: string; url: string; kind: string; status?: number }>;
    settle?: { ms: number; how: string; busy?: string[] };
    read_only_wrote?: true;
  };
};

async function lab(url: string): Promise<ActState> {
  return (await (await fetch(new URL('/act/__state', url))).json()) as ActState;
}

async function agentOn(
  fx: { steward: { context: import('@playwright/test').BrowserContext }; openPanel: (p: Page) => Promise<Page>; tabIdOf: (p: Page) => Promise<number> },
  labUrl: string,
  path: string,
) {
  await fetch(new URL('/act/__reset', labUrl), { method: 'POST' });
  const page = await fx.steward.context.newPage();
  await page.goto(`${labUrl}${path}`);
  const panel = await fx.openPanel(page);
  const tabId = await fx.tabIdOf(page);
  const token = await mint(panel, { scope: ['dom:*'], resource_scope: '*', origins: [new URL(labUrl).origin] });
  const look = async () => (await observe(panel, tabId)) as unknown as Observed;
  const ref = async (name: string, role?: string) => {
    const o = await look();
    const e = o.elements.find((x) => x.name === name && (!role || x.role === role));
    if (!e) throw new Error(`no element named ${name}${role ? ` (${role})` : ''}: ${o.elements.map((x) => `${x.role} ${x.name}`).join(', ')}`);
    return e.ref;
  };
  let n = 0;
  const run = async (action: string, input: Record<string, unknown>, wait = true, key = `e2e-prim-${path.replace(/\W/g, '')}-${++n}`) => {
    const o = await look();
    return (await data(submit(panel, { token, tabId, request: { action, resource: o.resource, input, idempotency_key: key }, wait_for_approval: wait }))).result as Result;
  };
  return { page, panel, tabId, look, ref, run };
}

test('Enter in a form field is a submission: the card binds the form’s values, and after approval the server gets exactly one', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/act/form');
  const who = await fx.ref('Your name');
  const topic = await fx.ref('Topic');
  expect((await fx.run('dom.type', { ref: who, text: 'Ada' })).execution).toMatchObject({ status: 'confirmed' });
  expect((await fx.run('dom.type', { ref: topic, text: 'Refund' })).execution).toMatchObject({ status: 'confirmed' });
  // Tab only moves the focus: no approval.
  expect((await fx.run('dom.press', { ref: who, key: 'Tab' })).execution).toMatchObject({ status: 'confirmed' });
  await expect(fx.page.locator('#topic')).toBeFocused();

  // The worst an agent may do: Enter to submit, without asking. It is held for the person.
  const held = await fx.run('dom.press', { ref: topic, key: 'Enter' }, false, 'e2e-prim-held-enter');
  expect(held).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
  expect((await lab(sites.urls.lab)).submissions).toEqual([]);
  const card = (await pendingCard(fx.panel, 'dom.press')) as Awaited<ReturnType<typeof pendingCard>> & { form?: { fields: Array<{ name: string; value?: string }> } };
  expect(card.reasons.map((r) => r.code)).toContain('form_submission');
  expect(card.form?.fields).toEqual(expect.arrayContaining([expect.objectContaining({ value: 'Ada' }), expect.objectContaining({ value: 'Refund' })]));

  // The person approves that very card; the agent asks again with the same key and gets the result.
  expect(await approve(fx.panel, card)).toMatchObject({ ok: true });
  let result: Result = {};
  await expect
    .poll(async () => {
      result = await fx.run('dom.press', { ref: topic, key: 'Enter' }, true, 'e2e-prim-held-enter');
      return result.error?.code;
    })
    .not.toBe('IN_PROGRESS');
  expect(result.error).toBeUndefined();
  await expect.poll(async () => (await lab(sites.urls.lab)).submissions).toEqual([{ who: 'Ada', topic: 'Refund' }]);
  await expect(fx.page.getByRole('heading', { name: 'Message sent' })).toBeVisible();
});

test('a page that changes a field after the Enter was approved voids it: nothing is submitted', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/act/form');
  const topic = await fx.ref('Topic');
  await fx.run('dom.type', { ref: topic, text: 'Refund' });
  const submitting = fx.run('dom.press', { ref: topic, key: 'Enter' });
  const card = await pendingCard(fx.panel, 'dom.press');
  await fx.page.locator('#who').fill('Mallory');
  await approve(fx.panel, card);
  expect(await submitting).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'form_changed' } } });
  expect((await lab(sites.urls.lab)).submissions).toEqual([]);
});

test('hover opens a menu: the next observation shows its items; hover needs no approval', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/act/menu');
  const before = await fx.look();
  expect(before.elements.filter((e) => e.role === 'menuitem' && e.visibility === 'visible')).toEqual([]);
  const r = await fx.run('dom.hover', { ref: await fx.ref('Account', 'button') });
  expect(r.execution?.status).toBe('confirmed');
  expect(r.observed_changes?.appeared?.examples).toEqual(expect.arrayContaining([{ role: 'menuitem', name: 'Profile' }]));
  const after = await fx.look();
  expect(after.elements.filter((e) => e.role === 'menuitem' && e.visibility === 'visible').map((e) => e.name)).toEqual(['Profile', 'Billing']);
});

test('a pointer-dragged slider handle moves and saves; its card says why (a slider alone may save at once)', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/act/slider');
  const volume = await fx.ref('Volume', 'slider');
  const dragging = fx.run('dom.drag', { ref: volume, offset: { x: 200, y: 0 } });
  const card = await pendingCard(fx.panel, 'dom.drag');
  expect(card.reasons.map((r) => r.code)).toContain('not_read_only');
  await approve(fx.panel, card);
  const r = await dragging;
  expect(r.error).toBeUndefined();
  const saved = (await lab(sites.urls.lab)).slider;
  expect(saved).toHaveLength(1);
  expect(saved[0]).toBeGreaterThanOrEqual(65);
  expect(saved[0]).toBeLessThanOrEqual(75);
  expect(r.observed_changes?.requests).toEqual([expect.objectContaining({ method: 'POST', url: expect.stringContaining('/act/slider'), kind: 'fetch' })]);
});

test('sortable lists reorder by pointer drag and by HTML5 drag-and-drop, checked on the server; a drop on “Delete” is held for the person', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/act/sortable');
  const drag = async (input: Record<string, unknown>) => {
    const running = fx.run('dom.drag', input);
    const card = await pendingCard(fx.panel, 'dom.drag');
    await approve(fx.panel, card);
    return { card, result: await running };
  };
  const pointer = await drag({ ref: await fx.ref('Alpha'), to: await fx.ref('Charlie') });
  expect(pointer.card.reasons.map((r) => r.code)).toContain('unknown_risk');
  expect(pointer.result.error).toBeUndefined();
  await expect.poll(async () => (await lab(sites.urls.lab)).orders.at(-1)).toEqual({ list: 'pointer', order: ['Bravo', 'Charlie', 'Alpha'] });

  const html5 = await drag({ ref: await fx.ref('Xray'), to: await fx.ref('Zulu') });
  expect(html5.result.error).toBeUndefined();
  await expect.poll(async () => (await lab(sites.urls.lab)).orders.at(-1)).toEqual({ list: 'dnd', order: ['Yankee', 'Zulu', 'Xray'] });

  // The worst: drag an item onto "Delete" without asking. Held; nothing dropped.
  const held = await fx.run('dom.drag', { ref: await fx.ref('Yankee'), to: await fx.ref('Delete') }, false);
  expect(held).toMatchObject({ error: { code: 'APPROVAL_REQUIRED', details: { reasons: expect.arrayContaining(['risky_control']) } } });
  expect((await lab(sites.urls.lab)).dropped).toEqual([]);
});

test('check and uncheck set the state asked for and read it back; upload is refused with nothing changed', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/act/toggles');
  const approved = async (input: Record<string, unknown>) => {
    const running = fx.run('dom.check', input);
    await approve(fx.panel, await pendingCard(fx.panel, 'dom.check'));
    return running;
  };
  const news = await fx.ref('Weekly newsletter', 'checkbox');
  expect((await approved({ ref: news, checked: true })).execution).toMatchObject({ status: 'confirmed' });
  await expect(fx.page.locator('#news')).toBeChecked();
  const dark = await fx.ref('Dark mode', 'switch');
  expect((await approved({ ref: dark, checked: true })).error).toBeUndefined();
  expect((await approved({ ref: dark, checked: false })).error).toBeUndefined();
  await expect(fx.page.locator('#dark')).toHaveAttribute('aria-checked', 'false');
  await expect
    .poll(async () => (await lab(sites.urls.lab)).toggles)
    .toEqual([
      { name: 'newsletter', on: true },
      { name: 'dark', on: true },
      { name: 'dark', on: false },
    ]);

  const before = await control(fx.panel, { type: 'panel/approvals' });
  const refused = await fx.run('dom.upload', { ref: await fx.ref('Your CV') }, false);
  expect(refused).toMatchObject({ error: { code: 'FILE_CHOICE_REQUIRED', message: expect.stringContaining('only the person may choose a file') } });
  expect(await control(fx.panel, { type: 'panel/approvals' })).toEqual(before);
  expect(await fx.page.locator('#cv').evaluate((i: HTMLInputElement) => i.files?.length ?? 0)).toBe(0);
});

test('a span that looks like a disclosure but deletes is reported with the write in its result', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/act/span');
  const r = await fx.run('dom.click', { ref: await fx.ref('View details') });
  expect((await lab(sites.urls.lab)).deleted).toEqual(['7']);
  expect(r.observed_changes).toMatchObject({ read_only_wrote: true, requests: [expect.objectContaining({ method: 'DELETE', url: expect.stringContaining('/act/items/7'), status: 200 })] });
  expect(r.execution?.certainty).not.toBe('confirmed');
});

test('a page that mutates forever settles at the cap, and says so, without hanging', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/act/forever');
  const hello = await fx.ref('Say hello');
  const running = fx.run('dom.click', { ref: hello });
  const card = await pendingCard(fx.panel, 'dom.click');
  await approve(fx.panel, card);
  const r = await running;
  expect(r.observed_changes?.settle).toMatchObject({ how: 'capped', busy: ['mutations'] });
  expect(r.observed_changes!.settle!.ms).toBeLessThan(3_000);
  await expect(fx.page.locator('#said')).toHaveText('Hello back');
});

test('keys get the default actions a browser would take; a half-covered button is pressed where it can be reached', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.lab}/act/keys`);
  const tabId = await tabIdOf(page);
  const snap = (await steward.serviceWorker.evaluate(
    (tabId) => (globalThis as unknown as { stewardObservation: { observeTab: (t: number) => Promise<unknown> } }).stewardObservation.observeTab(tabId),
    tabId,
  )) as { data: { documentToken: string; elements: Array<{ ref: string; name: string; role: string; tag: string }> } };
  // The pointer-cursor span has no name of its own (naming inferred controls is the observation's job).
  const ref = (name: string) => snap.data.elements.find((e) => e.name === name || (name === 'Styled' && e.tag === 'span' && e.role !== 'button'))!.ref;
  const act = async (step: Record<string, unknown>) =>
    (
      (await steward.serviceWorker.evaluate(([tabId, steps, documentToken]) => chrome.tabs.sendMessage(tabId, { type: 'content/act', steps, documentToken }, { frameId: 0 }), [
        tabId,
        [step],
        snap.data.documentToken,
      ] as const)) as { data: { steps: Array<{ status: string; code?: string; message: string; value?: string }>; settle?: { how: string } } }
    ).data;
  const log = () => page.locator('#log').textContent();

  // Tab follows tabindex order: Second (1), First (2), then the 0s in tree order (the header's link first).
  expect((await act({ op: 'press', ref: ref('Second'), key: 'Tab' })).steps[0]).toMatchObject({ status: 'done' });
  await expect(page.locator('#first')).toBeFocused();
  await act({ op: 'press', key: 'Tab' });
  await expect(page.getByRole('link', { name: 'Steward Lab' })).toBeFocused();
  await act({ op: 'press', key: 'Tab', repeat: 1 });
  await expect(page.locator('#third')).toBeFocused();
  await act({ op: 'press', key: 'Shift+Tab' });
  await expect(page.getByRole('link', { name: 'Steward Lab' })).toBeFocused();
  // Characters go in at the caret, with input events.
  expect((await act({ op: 'press', ref: ref('Third'), key: 'a', repeat: 3 })).steps[0]).toMatchObject({ status: 'done', value: 'aaa' });
  await act({ op: 'press', ref: ref('Third'), key: 'Backspace' });
  await expect(page.locator('#third')).toHaveValue('aa');
  // Enter on a role=button span and on a focusable span with a pointer cursor clicks it.
  await act({ op: 'press', ref: ref('Go'), key: 'Enter' });
  await act({ op: 'press', ref: ref('Styled'), key: 'Enter' });
  await expect.poll(log).toBe('go;styled;');
  // Arrows step a range input, move a select past a disabled option, and move within a radio group.
  expect((await act({ op: 'press', ref: ref('Level'), key: 'ArrowRight', repeat: 2 })).steps[0]).toMatchObject({ status: 'done', value: '7' });
  await act({ op: 'press', ref: ref('Level'), key: 'Home' });
  await expect(page.locator('#level')).toHaveValue('0');
  await act({ op: 'press', ref: ref('Size'), key: 'ArrowDown' });
  await expect(page.locator('#size')).toHaveValue('Large');
  await act({ op: 'press', ref: ref('Warm'), key: 'ArrowDown' });
  await expect(page.locator('input[value="b"]')).toBeChecked();
  // Escape closes the open modal dialog (with its cancel and close events).
  await page.locator('#open').click();
  await expect(page.locator('#dlg')).toBeVisible();
  await act({ op: 'press', key: 'Escape' });
  await expect(page.locator('#dlg')).toBeHidden();
  await expect.poll(log).toBe('go;styled;closed;');
  // The banner covers the button's centre; its lower part is still reachable and is where it is pressed.
  const half = (await act({ op: 'click', ref: ref('Half covered') })).steps[0]!;
  expect(half).toMatchObject({ status: 'done' });
  await expect.poll(log).toBe('go;styled;closed;half;');
});
