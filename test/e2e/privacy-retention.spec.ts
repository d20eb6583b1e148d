import { readFileSync } from 'node:fs';
import type { Page, Worker } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { mintThroughUi, showView, swRecords } from '../harness/panel-helpers.ts';

/**
 * Issue 30.6: the person limits and clears what Steward keeps of its activity log, and "Verify
 * chain" stays valid: each removal is recorded in the log as the chain's new start.
 */

const DAY = 24 * 60 * 60 * 1000;

/** Moves the service worker's clock (only the worker's: the log stamps entries with it) by `ms`. */
async function shiftWorkerClock(sw: Worker, ms: number): Promise<void> {
  await sw.evaluate((ms) => {
    const g = globalThis as unknown as { __realNow?: () => number };
    g.__realNow ??= Date.now.bind(Date);
    const real = g.__realNow;
    Date.now = () => real() + ms;
  }, ms);
}

async function verifyChain(panel: Page): Promise<string> {
  await showView(panel, 'Activity');
  await panel.getByRole('button', { name: 'Verify chain' }).click();
  const valid = panel.getByRole('status').filter({ hasText: 'Chain valid' });
  await expect(valid).toBeVisible();
  return (await valid.textContent()) ?? '';
}

test('retention and clear remove old activity and Verify chain stays valid; a download verifies; tampering after is still caught', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(sites.urls.shop);
  const panel = await openPanel(page);
  const origin = new URL(sites.urls.shop).origin;
  const sw = steward.serviceWorker;

  // Some activity today, then more "three days later" (the worker's clock moved on).
  await mintThroughUi(panel, { scopes: 'orders:read', resources: 'order:*', origins: origin });
  await mintThroughUi(panel, { scopes: 'orders:read', resources: 'order:*', origins: origin });
  const old = (await swRecords(sw, 'audit')) as Array<{ seq: number }>;
  expect(old.length).toBeGreaterThan(1);
  await shiftWorkerClock(sw, 3 * DAY);
  try {
    await mintThroughUi(panel, { scopes: 'orders:read', resources: 'order:*', origins: origin });
    const before = (await swRecords(sw, 'audit')) as Array<{ seq: number }>;
    expect(await verifyChain(panel)).toBe(`Chain valid: all ${before.length} entries are intact and in order.`);

    // Keep two days: today's (three days old by the worker's clock) go, the newer stay.
    await showView(panel, 'Settings');
    const block = panel.getByRole('group', { name: 'Activity log' });
    await block.getByLabel(/Keep activity for/).fill('2');
    // Settings' one Save stores it with the rest.
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await expect(panel.getByRole('status').filter({ hasText: 'Settings saved.' })).toContainText(`Steward keeps 2 days of activity. ${old.length} entries older than that removed`);
    const kept = (await swRecords(sw, 'audit')) as Array<{ seq: number; kind: string; details?: Record<string, unknown> }>;
    const lastOld = old.at(-1)!.seq;
    expect(kept[0]!.seq).toBe(lastOld + 1);
    expect(kept.at(-1)).toMatchObject({ kind: 'retention', details: { through_seq: lastOld, removed: old.length, retention_days: 2 } });
    expect(await verifyChain(panel)).toBe(`Chain valid: all ${kept.length} entries are intact and in order; it starts after entry #${lastOld} (older entries were removed, as the log records).`);

    // The download opens with the chain's start and verifies in the panel.
    await showView(panel, 'Settings');
    const [download] = await Promise.all([panel.waitForEvent('download'), block.getByRole('button', { name: 'Download activity (JSONL)' }).click()]);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ chain_start: { through_seq: lastOld } });
    await showView(panel, 'Activity');
    await panel.getByLabel('Verify a downloaded log…').setInputFiles({ name: 'audit.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(text) });
    await expect(panel.getByRole('status').filter({ hasText: 'Downloaded log valid' })).toContainText(`all ${kept.length} entries are intact and in order, and the head is signed by this Steward`);

    // Clear: one entry is left, recording the clear; the chain is still valid, and goes on.
    await showView(panel, 'Settings');
    await block.getByRole('button', { name: 'Clear activity…' }).click();
    await panel.getByRole('group', { name: 'Confirm clearing the activity log' }).getByRole('button', { name: 'Clear activity' }).click();
    await expect(block.getByRole('status')).toContainText(`Activity cleared: ${kept.length} entries removed.`);
    const cleared = (await swRecords(sw, 'audit')) as Array<{ seq: number; kind: string; outcome: string }>;
    expect(cleared).toHaveLength(1);
    expect(cleared[0]).toMatchObject({ seq: kept.at(-1)!.seq + 1, kind: 'retention', outcome: 'log_cleared' });
    expect(await verifyChain(panel)).toContain('Chain valid: all 1 entries are intact and in order; it starts after entry');
    await mintThroughUi(panel, { scopes: 'orders:read', resources: 'order:*', origins: origin });
    expect(await verifyChain(panel)).toContain('Chain valid: all 2 entries');
  } finally {
    await shiftWorkerClock(sw, 0);
  }

  // What remains is still protected: an edit behind Steward's back breaks the chain at that entry.
  const edited = ((await swRecords(sw, 'audit')) as Array<{ seq: number }>).at(-1)!.seq;
  await sw.evaluate(
    (seq) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('steward');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const store = open.result.transaction('audit', 'readwrite').objectStore('audit');
          const get = store.get(seq);
          get.onsuccess = () => {
            const put = store.put({ ...get.result, outcome: 'revoked' });
            put.onsuccess = () => (resolve(), open.result.close());
            put.onerror = () => reject(put.error);
          };
        };
      }),
    edited,
  );
  await showView(panel, 'Activity');
  await panel.getByRole('button', { name: 'Verify chain' }).click();
  await expect(panel.getByRole('alert').filter({ hasText: 'Chain broken' })).toContainText(`Chain broken at entry #${edited}`);
});
