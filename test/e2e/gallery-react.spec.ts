/**
 * The React gallery in real Chromium, without Steward: each label is checked against what a person
 * gets on the page (its id is on screen or in the title, its controls exist, its churn really moves
 * and pages without churn stay still, its real change really changes the page, its unreachable
 * controls really are out of reach, its planted conflicts really are there).
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadGalleryLabels, type GalleryLabel } from '../../sites/lab/gallery/label.ts';
import { CHROMIUM_FLAGS } from '../harness/browser.ts';
import { expect, test } from '../harness/fixtures.ts';

const labels = loadGalleryLabels().filter((l) => l.kit === 'react-mui');

let browser: Browser;
test.beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', '..', 'dist-gallery', 'react', 'index.html')))
    throw new Error('dist-gallery/react is missing: run `npm run build:gallery` (part of `npm run build:test`).');
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
});
test.afterAll(async () => {
  await browser?.close();
});

async function open(label: GalleryLabel, lab: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL(label.path, lab).href);
  await expect(page.getByRole('heading', { level: 1 }).or(page.getByRole('dialog'))).toBeVisible();
  await page.waitForLoadState('networkidle');
  return { page, errors };
}

/** The page's content as the accessibility tree has it, the dialog included when one is open. */
const content = (page: Page) => page.locator('body').ariaSnapshot();

test.describe('React gallery pages match their labels (real Chromium, no extension)', () => {
  for (const label of labels) {
    test(`${label.slug}: ${label.what.slice(0, 60)}`, async ({ sites }) => {
      const { page, errors } = await open(label, sites.urls.lab);
      try {
        if (label.resource) expect(`${await page.title()} ${await page.locator('body').innerText()}`).toContain(label.resource.id);
        const snapshot = await content(page);
        for (const name of label.clickable) expect(snapshot, `control "${name}"`).toContain(name);

        for (const name of label.unreachable) {
          const box = await page.getByRole('button', { name, includeHidden: true }).boundingBox();
          expect(box === null || box.x + box.width < -1000 || box.width * box.height <= 1, `"${name}" is out of reach`).toBe(true);
        }

        if (label.churn.length > 0) {
          await expect.poll(() => content(page), { message: 'the churn really moves', timeout: 5000 }).not.toBe(snapshot);
        } else {
          await page.waitForTimeout(2100);
          expect(await content(page), 'nothing moves on its own').toBe(snapshot);
        }
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }

  test('the real changes change what the page shows', async ({ sites }) => {
    const changed = labels.filter((l) => l.real_change);
    expect(changed.map((l) => l.slug).sort()).toEqual(['r-admin-users', 'r-checkout-countdown', 'r-subscription-settings', 'r-ticket-seats']);
    for (const label of changed) {
      const change = label.real_change!;
      const { page } = await open(label, sites.urls.lab);
      const control = page.getByRole(change.role, { name: change.name });
      if (change.role === 'combobox') {
        await control.click();
        await page.getByRole('option', { name: change.option! }).click();
        await expect(control).toContainText(change.option!);
      } else {
        await control.click();
      }
      const body = page.locator('body');
      if (label.slug === 'r-checkout-countdown') await expect(body).toContainText('Order total €49.80');
      if (label.slug === 'r-admin-users') await expect(page.getByRole('row')).toHaveCount(2);
      if (label.slug === 'r-subscription-settings') {
        await expect(control).not.toBeChecked();
        await expect(body).toContainText('will not renew');
      }
      await page.close();
    }
  });

  test('the planted conflicts are there: a total only in pixels, a chip the fetched JSON contradicts', async ({ sites }) => {
    const invoice = labels.find((l) => l.conflicts.includes('canvas_total_not_observed'))!;
    const { page } = await open(invoice, sites.urls.lab);
    await expect(page.locator('canvas')).toBeVisible();
    expect(await page.locator('body').innerText()).not.toContain('1,240');
    expect(await content(page)).not.toContain('1,240');
    await page.close();

    const mismatch = labels.find((l) => l.conflicts.includes('dom_state_disagrees_with_network'))!;
    const tab = await browser.newPage();
    const response = tab.waitForResponse((r) => r.url().includes('/gallery/react/api/orders/'));
    await tab.goto(new URL(mismatch.path, sites.urls.lab).href);
    const fetched = (await (await response).json()) as { status: string };
    // The label is the server's state; the page's chip is the stale copy that contradicts it.
    expect(fetched.status).toBe(mismatch.state);
    await expect(tab.getByText('Shipped', { exact: true })).toBeVisible();
    expect(await tab.locator('body').innerText()).not.toMatch(new RegExp(fetched.status, 'i'));
    await tab.close();
  });
});
