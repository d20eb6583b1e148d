import type { Page, Worker } from '@playwright/test';
import { expand, query, renderSnapshot, approxTokens } from '../../src/observation/render/index.ts';
import type { PageSnapshot } from '../../src/protocol/snapshot.ts';
import { test, expect } from '../harness/fixtures.ts';

/**
 * The lab's generated admin tables (1.6k / 16k / 80k elements) in real Chromium: stable refs,
 * incremental updates, bounded work on huge pages, and an LLM rendering that stays within its
 * token budget while every interactive element stays reachable by ref.
 */

type Result<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string; retryable: boolean } };
type Api = { stewardObservation: { observeTab: (t: number, o: object) => Promise<unknown>; queryTab: (t: number, q: object, token?: string) => Promise<unknown> } };

function callObserve(sw: Worker, tabId: number, full = false): Promise<Result<PageSnapshot>> {
  return sw.evaluate(([tab, f]) => (globalThis as unknown as Api).stewardObservation.observeTab(tab, { full: f }), [tabId, full] as const) as Promise<Result<PageSnapshot>>;
}

async function observe(sw: Worker, tabId: number, full = false): Promise<PageSnapshot> {
  const r = await callObserve(sw, tabId, full);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.data;
}

async function openGrid(page: Page, labUrl: string, n: number): Promise<void> {
  await page.goto(`${labUrl}/grid?n=${n}`);
  await page.waitForLoadState('load');
}

test('refs survive re-observation and unrelated mutations; a removed element’s ref is never reused', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await openGrid(page, sites.urls.lab, 1600);
  const tabId = await tabIdOf(page);
  const first = await observe(steward.serviceWorker, tabId);
  expect(first.timing?.mode).toBe('full');
  const refOf = (s: PageSnapshot, name: string) => s.elements.find((e) => e.name === name)?.ref;
  const remove3 = refOf(first, 'Remove USR-00003')!;
  const edit5 = first.elements.filter((e) => e.name === 'Edit')[4]!.ref;
  expect(remove3).toMatch(/^e\d+$/);

  // Unrelated churn: a new banner at the top and a changed cell text.
  await page.evaluate(() => {
    const banner = document.createElement('p');
    banner.textContent = 'Maintenance tonight';
    document.querySelector('main')!.prepend(banner);
    document.querySelector('tbody tr:nth-child(10) .name')!.textContent = 'Renamed Person';
  });
  const second = await observe(steward.serviceWorker, tabId);
  expect(second.timing?.mode).toBe('incremental');
  expect(refOf(second, 'Remove USR-00003')).toBe(remove3);
  expect(second.elements.filter((e) => e.name === 'Edit')[4]!.ref).toBe(edit5);
  expect(second.texts.some((t) => t.text === 'Maintenance tonight')).toBe(true);
  expect(second.texts.some((t) => t.text === 'Renamed Person')).toBe(true);
  // Identical element lists apart from what changed: same refs in the same order.
  expect(second.elements.map((e) => e.ref)).toEqual(first.elements.map((e) => e.ref));
  // A full re-walk keeps refs too.
  const full = await observe(steward.serviceWorker, tabId, true);
  expect(full.elements.map((e) => e.ref)).toEqual(first.elements.map((e) => e.ref));

  // Remove row 3, add a look-alike row: the new Remove button gets a new ref, the old one is gone.
  await page.evaluate(() => {
    const row = document.querySelector('tr[data-user-id="USR-00003"]')!;
    const clone = row.cloneNode(true) as HTMLElement;
    row.remove();
    document.querySelector('tbody')!.append(clone);
  });
  const third = await observe(steward.serviceWorker, tabId);
  const newRemove3 = refOf(third, 'Remove USR-00003')!;
  expect(newRemove3).not.toBe(remove3);
  expect(third.elements.some((e) => e.ref === remove3)).toBe(false);
  const issued = new Set(first.elements.map((e) => e.ref));
  expect(issued.has(newRemove3)).toBe(false);
  // Document order is kept: the moved row is now last.
  expect(third.elements.filter((e) => e.name.startsWith('Remove ')).at(-1)!.name).toBe('Remove USR-00003');

  // Expand-by-ref against the live page: the removed ref is reported missing, the new one found.
  const q = (await steward.serviceWorker.evaluate(([tab, refs, token]) => (globalThis as unknown as Api).stewardObservation.queryTab(tab, { refs }, token), [
    tabId,
    [remove3, newRemove3],
    third.documentToken,
  ] as const)) as Result<{ elements: Array<{ ref: string; name: string }>; missing: string[] }>;
  expect(q.ok).toBe(true);
  if (q.ok) {
    expect(q.data.missing).toEqual([remove3]);
    expect(q.data.elements.map((e) => e.name)).toEqual(['Remove USR-00003']);
  }
  // Refs of another document are refused, not resolved against this one.
  const stale = (await steward.serviceWorker.evaluate(([tab, ref]) => (globalThis as unknown as Api).stewardObservation.queryTab(tab, { refs: [ref] }, 'not-this-document'), [
    tabId,
    newRemove3,
  ] as const)) as Result<unknown>;
  expect(stale).toMatchObject({ ok: false, error: { code: 'STALE_DOCUMENT' } });
});

test('tables and structured data are re-read when they change, and only then', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await openGrid(page, sites.urls.lab, 1600);
  const tabId = await tabIdOf(page);
  const first = await observe(steward.serviceWorker, tabId);
  const table = first.tables![0]!;
  expect(table.headers).toEqual(['', 'ID', 'Name', 'Email', 'Status', 'Last login', 'Role', 'Actions']);
  expect(table.rows[0]!.slice(1, 3)).toEqual(['USR-00001', 'Ada Lovelace']);
  expect(table.rowCount).toBe(first.containers!.find((c) => c.role === 'table')!.rows);
  expect(first.structuredData).toEqual([{ kind: 'json-ld', type: 'Dataset', data: expect.objectContaining({ name: 'Team members' }) }]);

  // A change outside both: they are reported unchanged.
  await page.evaluate(() => document.querySelector('h1')!.append(' (live)'));
  const second = await observe(steward.serviceWorker, tabId);
  expect(second.tables).toEqual(first.tables);
  expect(second.structuredData).toEqual(first.structuredData);

  // A change inside each: they follow.
  await page.evaluate(() => {
    document.querySelector('tbody tr .name')!.textContent = 'Grace Hopper';
    const ld = document.querySelector('script[type="application/ld+json"]')!;
    ld.textContent = JSON.stringify({ '@type': 'Dataset', name: 'Everyone' });
  });
  const third = await observe(steward.serviceWorker, tabId);
  expect(third.tables![0]!.rows[0]![2]).toBe('Grace Hopper');
  expect(third.structuredData[0]!.data).toEqual({ '@type': 'Dataset', name: 'Everyone' });

  // Rows are re-read one by one: a change in the third row shows there, the rows around it keep what they said.
  await page.evaluate(() => {
    document.querySelectorAll('tbody tr')[2]!.querySelectorAll('td')[3]!.textContent = 'moved@example.test';
  });
  const fourth = await observe(steward.serviceWorker, tabId);
  const rows = fourth.tables![0]!.rows;
  expect(rows[2]![3]).toBe('moved@example.test');
  expect(rows[0]![2]).toBe('Grace Hopper');
  expect(rows[1]).toEqual(table.rows[1]);
  expect(rows.slice(3)).toEqual(table.rows.slice(3));
  expect(fourth.tables![0]!.rowCount).toBe(table.rowCount);
});

test('content inserted above the table moves every box: the small delta rebuilds exactly what the page sees', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await openGrid(page, sites.urls.lab, 1600);
  const tabId = await tabIdOf(page);
  // Record how long each answer from the page is (the JSON text the content script sends).
  await steward.serviceWorker.evaluate(() => {
    const g = globalThis as unknown as { replyLengths: number[] };
    g.replyLengths = [];
    const send = chrome.tabs.sendMessage.bind(chrome.tabs) as (...args: unknown[]) => Promise<unknown>;
    (chrome.tabs as unknown as { sendMessage: unknown }).sendMessage = async (...args: unknown[]) => {
      const reply = (await send(...args)) as { data?: unknown } | undefined;
      if (typeof reply?.data === 'string') g.replyLengths.push(reply.data.length);
      return reply;
    };
  });
  const replyLengths = () => steward.serviceWorker.evaluate(() => (globalThis as unknown as { replyLengths: number[] }).replyLengths);
  const settle = () => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  // What the page itself holds, read without the service worker's copy: every element and text (fewer than 500 of each here).
  const pageView = async () => {
    const r = (await steward.serviceWorker.evaluate(([tab]) => (globalThis as unknown as Api).stewardObservation.queryTab(tab, { text: '', limit: 500 }), [tabId] as const)) as Result<{
      elements: unknown[];
      texts: unknown[];
      total: number;
    }>;
    if (!r.ok) throw new Error(r.error.message);
    expect(r.data.total).toBeLessThan(500);
    return { elements: r.data.elements, texts: r.data.texts };
  };

  const before = await observe(steward.serviceWorker, tabId);
  for (const step of ['insert', 'remove'] as const) {
    await page.evaluate((step) => {
      if (step === 'insert') document.querySelector('main')!.insertAdjacentHTML('afterbegin', '<p id="notice">Maintenance tonight.</p>');
      else document.getElementById('notice')!.remove();
    }, step);
    await settle();
    const incremental = await observe(steward.serviceWorker, tabId);
    expect({ elements: incremental.elements, texts: incremental.texts }).toEqual(await pageView());
    if (step === 'insert') {
      // Every box below the notice moved, and the notice is the first text after the page's heading texts.
      expect(incremental.elements.at(-1)!.box!.y).toBeGreaterThan(before.elements.at(-1)!.box!.y + 30);
      expect(incremental.texts.some((t) => t.text === 'Maintenance tonight.')).toBe(true);
    } else expect(incremental.elements.map((e) => e.box)).toEqual(before.elements.map((e) => e.box));
  }
  // A full observation re-walks everything and sends the page's digest with its (small) delta:
  // the worker's rebuilt copy agrees with it, so nothing is asked for again.
  expect({ elements: (await observe(steward.serviceWorker, tabId, true)).elements }).toEqual({ elements: (await pageView()).elements });
  // The first answer was the whole snapshot; the answers after each change, and to the full
  // observation, were a small part of it.
  const [whole, ...afterChanges] = await replyLengths();
  expect(afterChanges).toHaveLength(3);
  for (const length of afterChanges) expect(length).toBeLessThan(whole! / 10);
});

test('values typed and boxes ticked without any mutation are read fresh on the next observation', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await openGrid(page, sites.urls.lab, 1600);
  const tabId = await tabIdOf(page);
  await observe(steward.serviceWorker, tabId);
  await page.getByRole('searchbox', { name: 'Search members' }).fill('lovelace');
  await page.getByRole('checkbox', { name: 'Select USR-00002' }).check();
  await page.getByRole('combobox', { name: 'Role of USR-00001' }).selectOption('Admin');
  const snap = await observe(steward.serviceWorker, tabId);
  const el = (name: string) => snap.elements.find((e) => e.name === name)!;
  expect(el('Search members').value).toBe('lovelace');
  expect(el('Select USR-00002').states).toContain('checked');
  expect(el('Select USR-00001').states).not.toContain('checked');
  expect(el('Role of USR-00001').value).toBe('Admin');
  expect(el('Role of USR-00001').options).toEqual(['Viewer', 'Editor', 'Admin']);

  // A select's value is remembered per selectedIndex until something inside it mutates: a script
  // moving the index (no event, no mutation) and a relabelled option must both show.
  await page.evaluate(() => {
    (document.querySelector('select[aria-label="Role of USR-00001"]') as HTMLSelectElement).selectedIndex = 1;
    (document.querySelector('select[aria-label="Role of USR-00002"]') as HTMLSelectElement).selectedOptions[0]!.textContent = 'Owner';
  });
  const again = await observe(steward.serviceWorker, tabId);
  expect(again.elements.find((e) => e.name === 'Role of USR-00001')!.value).toBe('Editor');
  expect(again.elements.find((e) => e.name === 'Role of USR-00002')!.value).toBe('Owner');
});

test('the side panel can take a snapshot and query through messages; the 16k grid renders within budget with every control reachable', async ({ steward, sites, tabIdOf, openPanel }) => {
  const page = await steward.context.newPage();
  await openGrid(page, sites.urls.lab, 16000);
  const tabId = await tabIdOf(page);
  const panel = await openPanel(page);
  const reply = (await panel.evaluate((tab) => chrome.runtime.sendMessage({ type: 'panel/snapshot-tab', tabId: tab }), tabId)) as Result<PageSnapshot>;
  expect(reply.ok).toBe(true);
  const snap = (reply as { ok: true; data: PageSnapshot }).data;
  expect(snap.stats.nodes).toBeGreaterThan(15_000);
  expect(snap.elements.length).toBeGreaterThan(3_900);
  expect(snap.elements.every((e) => e.visibility === 'visible')).toBe(true);

  const text = renderSnapshot(snap);
  expect(approxTokens(text)).toBeLessThan(4_000);
  const table = snap.containers!.find((c) => c.role === 'table')!;
  expect(text).toContain(`table ${table.ref}`);
  expect(text).toContain(`expand("${table.ref}"`);

  // Every interactive element is reachable: shown in the rendering, or on a page of expand(table).
  const reachable = new Set<string>();
  for (const m of text.matchAll(/\be\d+\b/g)) reachable.add(m[0]);
  for (let offset = 0; ; offset += 200) {
    const pageText = expand(snap, table.ref, { offset, limit: 200 })!;
    for (const m of pageText.matchAll(/\be\d+\b/g)) reachable.add(m[0]);
    if (!pageText.includes('next: expand(')) break;
  }
  const unreachable = snap.elements.filter((e) => !reachable.has(e.ref));
  expect(unreachable.map((e) => e.ref)).toEqual([]);
  // And query finds them by role and name.
  expect(query(snap, { role: 'button', name: 'Remove USR-00700' }).elements).toHaveLength(1);
  expect(query(snap, { role: 'checkbox' }).total).toBe(snap.elements.filter((e) => e.role === 'checkbox').length);

  // The panel can also ask the live page (the message path checks the sender is the panel).
  const live = (await panel.evaluate(([tab, token]) => chrome.runtime.sendMessage({ type: 'panel/query-tab', tabId: tab, documentToken: token, query: { role: 'button', name: 'Remove USR-00700' } }), [
    tabId,
    snap.documentToken,
  ] as const)) as Result<{ elements: Array<{ ref: string }>; total: number }>;
  expect(live).toMatchObject({ ok: true, data: { total: 1 } });
  const target = query(snap, { role: 'button', name: 'Remove USR-00700' }).elements[0]!;
  expect((live as { ok: true; data: { elements: Array<{ ref: string }> } }).data.elements[0]!.ref).toBe(target.ref);

  // A second observation after a small change is incremental and cheap.
  await page.evaluate(() => {
    document.querySelector('tbody tr:nth-child(5) button')!.setAttribute('aria-label', 'Edit the fifth');
  });
  const again = await observe(steward.serviceWorker, tabId);
  expect(again.timing).toMatchObject({ mode: 'incremental', recomputed: 1 });
  expect(again.elements.find((e) => e.name === 'Edit the fifth')).toBeDefined();
});

test('the 80k-element grid is observed without crashing, and the content script keeps answering', async ({ steward, sites, tabIdOf }) => {
  test.setTimeout(120_000);
  const page = await steward.context.newPage();
  await openGrid(page, sites.urls.lab, 80000);
  const tabId = await tabIdOf(page);
  const snap = await observe(steward.serviceWorker, tabId);
  expect(snap.stats.nodes).toBeGreaterThan(75_000);
  expect(snap.elements.length).toBeGreaterThan(19_000);
  expect(snap.texts.length).toBeLessThanOrEqual(1_500);
  expect(snap.blindSpots).toContain('texts_truncated');
  expect(approxTokens(renderSnapshot(snap))).toBeLessThan(4_000);
  const again = await observe(steward.serviceWorker, tabId);
  expect(again.timing?.mode).toBe('incremental');
  expect(again.elements.length).toBe(snap.elements.length);
});

test('cells the walk left unread because earlier texts filled a snapshot are read when those turn out hidden', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await openGrid(page, sites.urls.lab, 1600);
  // More hidden paragraphs above the table than a snapshot carries texts: the walk reads them and
  // leaves the table's cells for later; none of the paragraphs is reported, so the cells are.
  await page.evaluate(() => {
    const hidden = document.createElement('div');
    hidden.hidden = true;
    hidden.innerHTML = Array.from({ length: 2_500 }, (_, i) => `<p>Hidden note ${i}</p>`).join('');
    document.querySelector('main')!.prepend(hidden);
  });
  const tabId = await tabIdOf(page);
  const rows = await page.locator('tbody tr').count();
  const first = await observe(steward.serviceWorker, tabId);
  const texts = first.texts.map((t) => t.text);
  expect(texts.some((t) => t.startsWith('Hidden note'))).toBe(false);
  expect(texts).toContain('Ada Lovelace');
  const lastRow = await page.locator('tbody tr').last().locator('td').nth(3).textContent();
  expect(texts).toContain(lastRow);
  expect(first.tables![0]!.rowCount ?? first.tables![0]!.rows.length).toBe(rows);
  // A full walk says the same, and so does an incremental one after a cell changed.
  expect((await observe(steward.serviceWorker, tabId, true)).texts.map((t) => t.text)).toEqual(texts);
  await page.evaluate(() => (document.querySelector('tbody tr:last-child td:nth-child(4)')!.textContent = 'moved@example.test'));
  const after = (await observe(steward.serviceWorker, tabId)).texts.map((t) => t.text);
  expect(after).toContain('moved@example.test');
  expect(after).not.toContain(lastRow);
});

test('a tab Steward cannot reach gets a clear, retryable error', async ({ steward }) => {
  const r = await callObserve(steward.serviceWorker, 987_654_321);
  expect(r).toMatchObject({ ok: false, error: { code: 'NO_CONTENT_SCRIPT', retryable: true } });
});
