import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { requestHash } from '../../src/base/hash.ts';
import {
  COPILOT,
  approve,
  cancelAsObserved,
  cancelRequests,
  control,
  data,
  historyOf,
  hold,
  journal,
  killServiceWorker,
  liveWorker,
  mint,
  observe,
  pendingCard,
  shopOrderPage,
  shopState,
  submit,
  type Card,
} from '../harness/pipeline-helpers.ts';

/**
 * MV3 may stop the service worker at any moment. Here it is stopped (CDP) at the two worst
 * moments — right after the approval, and right after dispatch — while the page is held in
 * between (Playwright routing), so the kill lands exactly there. The action must still end
 * exactly once on the shop's server, with a consistent journal and a valid audit chain.
 */

async function setUp(
  steward: { context: import('@playwright/test').BrowserContext },
  sites: { urls: Record<string, string> },
  openPanel: (p: Page) => Promise<Page>,
  tabIdOf: (p: Page) => Promise<number>,
  key: string,
  expectEffect?: Record<string, unknown>,
) {
  const page = await shopOrderPage(steward.context, sites.urls.shop!);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [new URL(sites.urls.shop!).origin] });
  const before = await observe(panel, tabId);
  const request = cancelAsObserved(before, 'delivery_too_slow', key);
  // The agent does not wait: the action continues in the service worker once approved.
  const first = (await data(submit(panel, { token, tabId, request, wait_for_approval: false, ...(expectEffect ? { expect: expectEffect } : {}) }))).result;
  expect(first).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
  const card: Card = await pendingCard(panel, 'orders.cancel');
  return { page, panel, tabId, token, request, card };
}

/** The extension's idempotency record for a key (read or written by the panel page: same origin). */
function idempotencyRecord(panel: Page, key: string, write?: Record<string, unknown>): Promise<{ status: string; action_id: string } | undefined> {
  return panel.evaluate(
    ({ agent, key, write }) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('steward');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('idempotency', write ? 'readwrite' : 'readonly');
          if (write) tx.objectStore('idempotency').put(write);
          const got = tx.objectStore('idempotency').get([agent, key]);
          tx.oncomplete = () => {
            db.close();
            resolve(got.result);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { agent: COPILOT, key, write },
  ) as Promise<{ status: string; action_id: string } | undefined>;
}

const headOf = async (panel: Page, key: string) => (await journal(panel)).heads.find((h) => h.idempotency_key === key);

/**
 * After the kill: a new worker comes up, its recovery takes the action from `from` to confirmed,
 * and the shop saw exactly one cancellation.
 */
async function expectRecoveredOnce(
  steward: { context: import('@playwright/test').BrowserContext; extensionId: string },
  sites: { urls: Record<string, string> },
  panel: Page,
  key: string,
  killedAt: number,
  from: string,
): Promise<void> {
  const worker = await liveWorker(steward.context, steward.extensionId, killedAt);
  await expect.poll(async () => (await headOf(panel, key))?.state, { timeout: 20_000 }).toBe('confirmed');
  // The recovery report is complete once recovery has finished (a moment after the journal says confirmed).
  const recovery = () =>
    worker.evaluate(() => (globalThis as unknown as { stewardPipeline: { recovery: () => unknown[] } }).stewardPipeline.recovery()) as Promise<Array<{ from: string; to: string }>>;
  await expect.poll(recovery).toEqual(expect.arrayContaining([expect.objectContaining({ from, to: 'confirmed' })]));
  const state = await shopState(sites.urls.shop!);
  expect(state.counters['ORD-1024']?.cancelled).toBe(1);
  expect(cancelRequests(state, 'ORD-1024')).toHaveLength(1);
}

test.describe('service-worker restarts mid-action', () => {
  test('killed right after the approval: resumed by re-reading state, dispatched once, confirmed', async ({ steward, sites, openPanel, tabIdOf }) => {
    const key = 'e2e-kill-after-approval';
    const { page, panel, tabId, token, request, card } = await setUp(steward, sites, openPanel, tabIdOf, key);

    // The page reloads and its document is held: after the approval the worker must re-observe
    // before dispatching, so it waits right there.
    const held = await hold(page, 'GET', '/orders/ORD-1024');
    void page.evaluate(() => location.reload());
    await held.seen;
    expect(await data(approve(panel, card))).toMatchObject({ status: 'approved' });
    await expect.poll(async () => (await headOf(panel, key))?.state).toBe('approved');

    const killedAt = Date.now();
    await killServiceWorker(panel, steward.serviceWorker);
    expect((await headOf(panel, key))?.state).toBe('approved');
    expect(cancelRequests(await shopState(sites.urls.shop), 'ORD-1024')).toHaveLength(0);

    await held.release();
    // Any message wakes the worker; it answers once recovery has claimed the unfinished action.
    expect(await data(control(panel, { type: 'panel/audit-verify' }))).toMatchObject({ ok: true });
    await expectRecoveredOnce(steward, sites, panel, key, killedAt, 'approved');
    await expect(page.locator('#order-status')).toHaveText('Cancelled');
    expect(await historyOf(panel, key)).toEqual(['proposed', 'awaiting_approval', 'approved', 'dispatched', 'confirmed']);

    // The agent asking again gets the outcome, not a second cancellation.
    const replay = (await data(submit(panel, { token, tabId, request }))).result;
    expect(replay).toMatchObject({ execution: { status: 'confirmed', certainty: 'confirmed' }, resource: { state: 'cancelled' } });
    expect(cancelRequests(await shopState(sites.urls.shop), 'ORD-1024')).toHaveLength(1);
    expect(await data(control(panel, { type: 'panel/audit-verify' }))).toMatchObject({ ok: true });
  });

  test('killed right after dispatch: never dispatched again, resolved by re-reading the order', async ({ steward, sites, openPanel, tabIdOf }) => {
    const key = 'e2e-kill-after-dispatch';
    const { page, panel, tabId, token, request, card } = await setUp(steward, sites, openPanel, tabIdOf, key, { state: 'cancelled' });

    // The cancel form's POST is held: the click has happened, the journal says dispatched, the
    // outcome is not known yet.
    const held = await hold(page, 'POST', '/orders/ORD-1024/cancel');
    expect(await data(approve(panel, card))).toMatchObject({ status: 'approved' });
    await held.seen;
    await expect.poll(async () => (await headOf(panel, key))?.state).toBe('dispatched');

    const killedAt = Date.now();
    await killServiceWorker(panel, steward.serviceWorker);
    expect((await headOf(panel, key))?.state).toBe('dispatched');

    // The request the page already sent reaches the shop after the worker died.
    await held.release();
    await expect(page.locator('#order-status')).toHaveText('Cancelled');
    expect(await data(control(panel, { type: 'panel/audit-verify' }))).toMatchObject({ ok: true });
    await expectRecoveredOnce(steward, sites, panel, key, killedAt, 'dispatched');
    // One dispatch in the journal: recovery re-read the state, it did not click again.
    expect(await historyOf(panel, key)).toEqual(['proposed', 'awaiting_approval', 'approved', 'dispatched', 'confirmed']);

    const replay = (await data(submit(panel, { token, tabId, request }))).result;
    expect(replay).toMatchObject({ execution: { status: 'confirmed', certainty: 'confirmed', verified_by: 'postcondition' }, resource: { state: 'cancelled' } });
    expect(cancelRequests(await shopState(sites.urls.shop), 'ORD-1024')).toHaveLength(1);
    const audit = await data<{ entries: Array<{ kind: string; idempotency_key?: string }> }>(control(panel, { type: 'panel/audit' }));
    expect(audit.entries.filter((e) => e.idempotency_key === key).map((e) => e.kind)).toEqual(expect.arrayContaining(['dispatch', 'recovery']));
    expect(audit.entries.filter((e) => e.idempotency_key === key && e.kind === 'dispatch')).toHaveLength(1);
    expect(await data(control(panel, { type: 'panel/audit-verify' }))).toMatchObject({ ok: true });
  });

  test('killed between claiming the key and journaling the action: the key is freed at restart and the retry runs once', async ({ steward, sites, openPanel, tabIdOf }) => {
    const key = 'e2e-kill-after-claim';
    const page = await shopOrderPage(steward.context, sites.urls.shop!);
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [new URL(sites.urls.shop!).origin] });
    const request = cancelAsObserved(await observe(panel, tabId), 'delivery_too_slow', key);

    // Steward writes the claim and the `proposed` record in one transaction, so no kill can split
    // them now; this is the state a kill between two separate writes left (an older version).
    const request_hash = await requestHash(request.action, request.resource, request.input);
    await idempotencyRecord(panel, key, { agent_id: COPILOT, key, request_hash, action_id: 'act_killed_after_claim', status: 'in_progress', created_at: Date.now() });
    expect((await journal(panel)).heads.filter((h) => h.idempotency_key === key)).toHaveLength(0);
    const killedAt = Date.now();
    await killServiceWorker(panel, steward.serviceWorker);

    expect(await data(control(panel, { type: 'panel/audit-verify' }))).toMatchObject({ ok: true });
    await liveWorker(steward.context, steward.extensionId, killedAt);
    // Recovery checked the key against the journal: no action ever held it, so it is free again.
    await expect.poll(async () => idempotencyRecord(panel, key)).toBeUndefined();

    // The agent's retry is a normal run (not IN_PROGRESS for ever), and it ends once.
    const retry = (await data(submit(panel, { token, tabId, request, wait_for_approval: false }))).result;
    expect(retry).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
    expect(await data(approve(panel, await pendingCard(panel, 'orders.cancel')))).toMatchObject({ status: 'approved' });
    await expect.poll(async () => (await headOf(panel, key))?.state, { timeout: 20_000 }).toBe('confirmed');
    await expect(page.locator('#order-status')).toHaveText('Cancelled');
    const replay = (await data(submit(panel, { token, tabId, request }))).result;
    expect(replay).toMatchObject({ execution: { status: 'confirmed' }, resource: { state: 'cancelled' } });
    expect(cancelRequests(await shopState(sites.urls.shop!), 'ORD-1024')).toHaveLength(1);
  });
});
