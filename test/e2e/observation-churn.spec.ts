import type { PageSnapshot } from '../../src/protocol/snapshot.ts';
import { test, expect } from '../harness/fixtures.ts';
import { observeViaPanel } from '../harness/panel-helpers.ts';

/**
 * state_version on a page that churns in every way at once (the lab's `/churn`: a clock, a
 * `<time>`, a countdown, a rotating promo line, a carousel, a ticker, an ad slot, a live line)
 * beside one real change (the quantity stepper): in real Chromium through the built extension.
 */

type Result<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };
type Observed = { state_version: string | number; state: string; resource: { type: string } };

async function snapshotOf(worker: import('@playwright/test').Worker, tabId: number): Promise<PageSnapshot> {
  const result = (await worker.evaluate(
    (tab) => (globalThis as unknown as { stewardObservation: { observeTab: (t: number, o: object) => Promise<unknown> } }).stewardObservation.observeTab(tab, { full: false }),
    tabId,
  )) as Result<PageSnapshot>;
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

test('churn leaves state_version alone; a quantity going up moves it', async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.lab}/churn`);
  await page.waitForLoadState('load');
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  // A page a person has had open for a few seconds: everything that rotates has rotated twice.
  await page.waitForTimeout(3_500);

  const observe = async () => (await observeViaPanel(panel, tabId)).state as unknown as Observed;
  const first = await observe();
  expect(first.resource.type).toBe('page');
  expect(first.state).toBe('unknown');
  await expect(page.locator('#clock')).not.toHaveText('00:00:00');

  const texts = (await snapshotOf(steward.serviceWorker, tabId)).texts;
  const volatile = (pattern: RegExp) => texts.filter((t) => pattern.test(t.text)).map((t) => t.volatile === true);
  expect(volatile(/^Time \d/), 'the clock').toEqual([true]);
  expect(volatile(/^Deal ends in/), 'the countdown').toEqual([true]);
  expect(volatile(/^(Members save|Free returns|Gift cards|New glazes):/), 'the rotating promo').toEqual([true]);
  expect(volatile(/^(ACME|GLOBEX|INITECH) \d/).every(Boolean), 'the ticker').toBe(true);
  expect(volatile(/^(Autumn blend|Brew guide|Visit our café)/), 'the carousel').toEqual([true]);
  expect(volatile(/^Sponsored ·/), 'the ad slot').toEqual([true]);
  expect(volatile(/^Basket saved/), 'the live line').toEqual([true]);
  expect(volatile(/^(2|Subtotal: \$48\.00|Total: \$48\.00)$/), 'the quantity and the totals').toEqual([false, false, false]);

  // Every rotation counts: the promo shows each of its four lines within 5 s ("Free returns: 30
  // days" once read as return 30), so look every 400 ms, not once.
  const versionsOver = async (ms: number) => {
    const seen = new Set<string>();
    for (const end = Date.now() + ms; Date.now() < end;) {
      await page.waitForTimeout(400);
      seen.add(String((await observe()).state_version));
    }
    return [...seen];
  };
  expect(await versionsOver(5_000), 'five seconds of churn later').toEqual([String(first.state_version)]);

  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(page.locator('#qty')).toHaveText('3');
  const after = await observe();
  expect(after.state_version, 'the quantity went from 2 to 3').not.toBe(first.state_version);

  // And it stays put again while the page keeps churning.
  expect(await versionsOver(5_000)).toEqual([String(after.state_version)]);
});
