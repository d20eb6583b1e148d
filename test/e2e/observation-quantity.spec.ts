import type { Page } from '@playwright/test';
import type { PageSnapshot } from '../../src/protocol/snapshot.ts';
import { test, expect } from '../harness/fixtures.ts';
import { observeViaPanel } from '../harness/panel-helpers.ts';

/**
 * Issue 26: a quantity changed in place by the page's own − / + buttons (no label on the number,
 * no request, no reload) on a page Steward has never seen, with native WebMCP on, moves
 * state_version; the page left alone does not.
 */

type Result<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

async function snapshotOf(worker: import('@playwright/test').Worker, tabId: number): Promise<PageSnapshot> {
  const result = (await worker.evaluate(
    (tab) => (globalThis as unknown as { stewardObservation: { observeTab: (t: number, o: object) => Promise<unknown> } }).stewardObservation.observeTab(tab, { full: false }),
    tabId,
  )) as Result<PageSnapshot>;
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

const PAGES = [
  { path: '/widgets/v-quantity?start=1', what: 'a plain text field with no label', shows: (page: Page, n: number) => expect(page.locator('.count')).toHaveValue(String(n)) },
  { path: '/gallery/html/h-tickets-in-place', what: 'a sentence ("2 tickets selected")', shows: (page: Page, n: number) => expect(page.locator('.js-count')).toHaveText(`${n} tickets selected`) },
];

for (const { path, what, shows } of PAGES) {
  test(`a count in ${what} that the page's own + and − buttons change moves state_version`, async ({ steward, sites, openPanel, tabIdOf }) => {
    const page = await steward.context.newPage();
    await page.goto(sites.urls.lab + path);
    await page.waitForLoadState('load');
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    const version = async () => ((await observeViaPanel(panel, tabId)).state as unknown as { state_version: string }).state_version;
    const start = path.includes('tickets') ? 2 : 1;

    const first = await version();
    await page.waitForTimeout(1_000);
    expect(await version(), 'nothing happened').toBe(first);
    // The count is shown, not marked as churn: the content script saw a person's click before it changed.
    await page.getByRole('button', { name: '+', exact: true }).click();
    await shows(page, start + 1);
    expect((await snapshotOf(steward.serviceWorker, tabId)).texts.filter((t) => t.volatile === true)).toEqual([]);
    const after = await version();
    expect(after, `the count went from ${start} to ${start + 1}`).not.toBe(first);

    await page.getByRole('button', { name: '−', exact: true }).click();
    await shows(page, start);
    const back = await version();
    expect(back, 'and back').not.toBe(after);
    await page.waitForTimeout(1_000);
    expect(await version(), 'and stays put').toBe(back);
  });
}
