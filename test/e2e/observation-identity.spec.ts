import type { Page, Worker } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { control, data, mint, observe } from '../harness/pipeline-helpers.ts';
import { showView, submissionResult, submitAsCopilot } from '../harness/panel-helpers.ts';

/**
 * Issue 14: a resource named the way real sites name it (a title, a breadcrumb, "Checkout for
 * ORD-2003") is identified; one named only by the breadcrumb is a guess and says so; a product
 * called "Trail Runner 3" names no resource, and its approval card says Steward could not tell.
 * Controls far off-canvas are offered nothing; one below the fold keeps its click.
 */

interface Observed {
  resource: { type: string; id: string };
  resource_identity?: { certainty: string; basis?: string; likely_type?: string };
  elements: Array<{ ref: string; name: string; visibility: string }>;
  actions: Array<{ action: string; target_ref?: string }>;
}

async function open(page: Page, url: string, panelOf: (page: Page) => Promise<Page>, tabIdOf: (page: Page) => Promise<number>) {
  await page.goto(url);
  const panel = await panelOf(page);
  const tabId = await tabIdOf(page);
  return { panel, tabId, observed: (await observe(panel, tabId)) as unknown as Observed };
}

const refOf = (o: Observed, name: string) => o.elements.find((e) => e.name === name)!.ref;

/** The snapshot texts the page side captured, with the landmark each sits in. */
async function texts(worker: Worker, tabId: number): Promise<Array<{ text: string; landmark?: string }>> {
  const r = (await worker.evaluate((tabId) => (globalThis as unknown as { stewardObservation: { observeTab: (t: number) => Promise<unknown> } }).stewardObservation.observeTab(tabId), tabId)) as {
    data: { texts: Array<{ text: string; landmark?: string }> };
  };
  return r.data.texts;
}

test('a checkout naming its order only in the title, breadcrumb and "Checkout for ORD-2003" is order ORD-2003; unreachable controls are offered nothing', async ({
  steward,
  sites,
  openPanel,
  tabIdOf,
}) => {
  const page = await steward.context.newPage();
  const { tabId, observed } = await open(page, `${sites.urls.lab}/identity/checkout`, openPanel, tabIdOf);
  expect(observed.resource).toEqual({ type: 'order', id: 'ORD-2003' });
  expect(observed.resource_identity?.certainty).toBe('identified');

  // The page side marks the breadcrumb's texts with their landmark.
  const crumbs = (await texts(steward.serviceWorker, tabId)).filter((t) => t.landmark === 'breadcrumb').map((t) => t.text);
  expect(crumbs).toEqual(expect.arrayContaining(['Orders', 'ORD-2003']));

  // Far off-canvas: neither a click nor a scroll to it. Below the fold: reachable, still clickable.
  const far = observed.elements.find((e) => e.name === 'Legacy export')!;
  expect(far.visibility).toBe('offscreen');
  expect(observed.actions.filter((a) => a.target_ref === far.ref)).toEqual([]);
  // Clipped away by its container's overflow: nobody can see or hit it.
  expect(observed.actions.filter((a) => a.target_ref === refOf(observed, 'Bulk relabel'))).toEqual([]);
  expect(observed.actions.filter((a) => a.target_ref === refOf(observed, 'Load more')).map((a) => a.action)).toEqual(['dom.click']);
});

test('an order named only by its breadcrumb is Steward’s guess, and the approval card says so and from what', async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  const { panel, tabId, observed } = await open(page, `${sites.urls.lab}/identity/order-detail`, openPanel, tabIdOf);
  expect(observed.resource).toEqual({ type: 'order', id: 'ORD-2003' });
  expect(observed.resource_identity).toMatchObject({ certainty: 'guessed', basis: 'breadcrumb "Home › Orders › ORD-2003"' });

  const token = await mint(panel, { scope: ['dom:click'], resource_scope: 'order:ORD-2003', origins: [new URL(sites.urls.lab).origin] });
  await submitAsCopilot(panel, tabId, token, { action: 'dom.click', resource: observed.resource, input: { ref: refOf(observed, 'Cancel order') }, idempotency_key: 'e2e-identity-guess' });
  await showView(panel, 'Approvals');
  const card = panel.getByRole('article', { name: /^Press button “Cancel order” \(order ORD-2003\) on / });
  await expect(card).toContainText('This is Steward’s guess, read from the breadcrumb "Home › Orders › ORD-2003": the page does not name it clearly.');
  await card.getByRole('button', { name: 'Deny' }).click();
  expect((await submissionResult(panel, 'default')).ok).toBe(true);
});

test('a product called "Trail Runner 3" names no resource: the approval card says Steward could not tell, not "on runner 3"', async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  const { panel, tabId, observed } = await open(page, `${sites.urls.lab}/identity/trail-runner-3`, openPanel, tabIdOf);
  expect(observed.resource.type).toBe('page');
  expect(observed.resource_identity).toEqual({ certainty: 'unknown' });

  const token = await mint(panel, { scope: ['dom:click'], resource_scope: 'page:*', origins: [new URL(sites.urls.lab).origin] });
  await page.evaluate(() => {
    const w = window as unknown as { __removed: number };
    w.__removed = 0;
    document.addEventListener('click', (e) => (e.target as Element).textContent === 'Remove from wishlist' && w.__removed++, true);
  });
  await submitAsCopilot(panel, tabId, token, { action: 'dom.click', resource: observed.resource, input: { ref: refOf(observed, 'Remove from wishlist') }, idempotency_key: 'e2e-identity-unknown' });
  await showView(panel, 'Approvals');
  // "This page" is left out of the sentence rather than named as if it were a resource.
  const card = panel.getByRole('article', { name: /^Press button “Remove from wishlist” on localhost:\d+, asked by / });
  await expect(card).toContainText('Steward could not tell which resource this page is about.');
  await expect(card).not.toContainText('runner 3');
  const pending = await data<{ pending: Array<{ resource_identity?: { certainty: string } }> }>(control(panel, { type: 'panel/approvals' }));
  expect(pending.pending.map((c) => c.resource_identity?.certainty)).toEqual(['unknown']);

  await card.getByRole('button', { name: 'Deny' }).click();
  await expect(card).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __removed: number }).__removed)).toBe(0);
});
