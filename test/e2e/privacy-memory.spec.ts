import type { Worker } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { grantedOrigins } from '../harness/browser.ts';
import { showView, swRecords } from '../harness/panel-helpers.ts';

/**
 * Issue 30.6: the person sees what Steward remembers, deletes an entry, and forgets a whole site
 * (its access, Chrome's permission, its memory), each on record in Activity.
 */

/** Durable memory as the pipeline writes it after actions (memory-resolver.ts), put straight into the worker's store. */
async function remember(sw: Worker, records: Array<Record<string, unknown>>): Promise<void> {
  await sw.evaluate(
    (records) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('steward');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('memory', 'readwrite');
          for (const r of records) tx.objectStore('memory').put(r);
          tx.oncomplete = () => (resolve(), open.result.close());
          tx.onerror = () => reject(tx.error);
        };
      }),
    records,
  );
}

const memoryIds = (sw: Worker) =>
  sw.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('steward');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('memory').objectStore('memory').getAllKeys();
          req.onsuccess = () => (resolve((req.result as string[]).sort()), open.result.close());
        };
      }),
  );

test('Memory lists what Steward remembers with Delete; Forget a site removes its access, Chrome’s permission and its memory, on record', async ({ steward, sites, openPanel }) => {
  const shop = new URL(sites.urls.shop).origin;
  const clinic = new URL(sites.urls.clinic).origin;
  const sw = steward.serviceWorker;
  const at = new Date().toISOString();
  await remember(sw, [
    {
      id: 'mem_shop1',
      layer: 'durable',
      kind: 'audit_reference',
      agent_id: 'agent:copilot',
      resource: { origin: shop, type: 'order', id: 'ORD-1' },
      payload: { action: 'orders.cancel', outcome: 'confirmed' },
      recorded_at: at,
    },
    {
      id: 'mem_shop2',
      layer: 'durable',
      kind: 'resource_id',
      agent_id: 'agent:copilot',
      resource: { origin: shop, type: 'order', id: 'ORD-2' },
      payload: { url_hint: `${shop}/orders/ORD-2` },
      recorded_at: at,
    },
    {
      id: 'mem_clinic',
      layer: 'durable',
      kind: 'audit_reference',
      agent_id: 'agent:copilot',
      resource: { origin: clinic, type: 'appointment', id: 'A-7' },
      payload: { action: 'appointments.view', outcome: 'done' },
      recorded_at: at,
    },
  ]);
  const page = await steward.context.newPage();
  await page.goto(sites.urls.shop);
  const panel = await openPanel(page);
  await showView(panel, 'Settings');
  // The privacy statement opens from the extension itself.
  const [statement] = await Promise.all([panel.context().waitForEvent('page'), panel.getByRole('link', { name: 'Privacy: what Steward keeps and what leaves your machine' }).click()]);
  await expect(statement.locator('body')).toContainText('## What leaves your machine');
  await expect(statement.locator('body')).toContainText('Nothing else leaves.');
  await statement.close();
  const memory = panel.getByRole('group', { name: 'Memory' });
  const list = memory.getByRole('list', { name: 'Memory entries' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list).toContainText(`Past action — appointment A-7 on ${new URL(clinic).host}`);

  // Delete one entry: it goes, and Activity says which.
  await list.getByRole('button', { name: `Delete Past action — appointment A-7 on ${new URL(clinic).host}` }).click();
  await expect(memory.getByRole('status')).toHaveText('Memory entry deleted.');
  await expect(list.getByRole('listitem')).toHaveCount(2);
  expect(await memoryIds(sw)).toEqual(['mem_shop1', 'mem_shop2']);

  // Forget the shop (the current tab's site is offered): access, Chrome's permission and memory go.
  expect(await grantedOrigins(sw)).toContain(`${shop}/*`);
  await expect(memory.getByRole('textbox', { name: 'Forget a site' })).toHaveValue(shop);
  await memory.getByRole('button', { name: 'Forget site' }).click();
  await expect(memory.getByRole('status')).toHaveText(`Forgot ${shop}: its access removed (Steward’s list and Chrome’s permission), 2 memory entries deleted. Recorded in Activity.`);
  await expect(memory.getByText('Steward remembers nothing yet.')).toBeVisible();
  expect(await memoryIds(sw)).toEqual([]);
  expect(await grantedOrigins(sw)).not.toContain(`${shop}/*`);
  await expect(panel.getByRole('list', { name: 'Allowed sites' })).not.toContainText(shop);

  const audit = (await swRecords(sw, 'audit')) as Array<{ kind: string; outcome?: string; details?: Record<string, unknown> }>;
  expect(audit.filter((e) => e.kind === 'privacy').map((e) => e.outcome)).toEqual(['memory_deleted', 'site_forgotten']);
  expect(audit.find((e) => e.outcome === 'site_forgotten')?.details).toMatchObject({ origin: shop, memory_removed: 2, site_removed: true });
  await showView(panel, 'Activity');
  await panel.getByRole('button', { name: 'Verify chain' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Chain valid' })).toBeVisible();
});
