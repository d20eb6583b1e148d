import { test, expect } from '../harness/fixtures.ts';
import { ORDER, approve, cancelAsObserved, cancelRequests, control, data, journal, mint, observe, pendingCard, shopOrderPage, shopState, submit } from '../harness/pipeline-helpers.ts';

/**
 * Cancel ORD-1024 on the legacy demo shop through the whole pipeline, checked against the shop
 * server's own records: token, fresh observation, preconditions, approval from the side panel,
 * execution through the shop adapter's controls, verification by re-observing, journal, audit.
 */

type Fixtures = Parameters<Parameters<typeof test>[2]>[0];

/** The agent's tab on ORD-1024's page, the side panel pinned to it, and the tab's id. */
async function onOrderPage({ steward, sites, openPanel, tabIdOf }: Pick<Fixtures, 'steward' | 'sites' | 'openPanel' | 'tabIdOf'>) {
  const page = await shopOrderPage(steward.context, sites.urls.shop);
  const panel = await openPanel(page);
  return { shop: new URL(sites.urls.shop).origin, page, panel, tabId: await tabIdOf(page) };
}

test.describe('the pipeline on the legacy shop', () => {
  test('cancels ORD-1024 once, approved from the side panel, confirmed only once the new state is observed', async ({ steward, sites, openPanel, tabIdOf }) => {
    const { shop, page, panel, tabId } = await onOrderPage({ steward, sites, openPanel, tabIdOf });
    const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [shop] });

    const before = await observe(panel, tabId);
    expect(before).toMatchObject({ resource: ORDER, state: 'awaiting_payment', source: 'adapter' });
    expect(before.available_actions).toContain('orders.cancel');

    const request = cancelAsObserved(before, 'ordered_by_mistake', 'e2e-cancel-1024');
    const submitted = submit(panel, { token, tabId, request });

    // The card waits for the person; nothing has reached the shop, and the badge counts it.
    const card = await pendingCard(panel, 'orders.cancel');
    expect(card).toMatchObject({ resource: ORDER, state: { state: 'awaiting_payment', state_version: before.state_version } });
    expect(card.reasons.map((r) => r.code)).toContain('consequential');
    expect((card as unknown as { input: unknown }).input).toEqual({ reason: 'ordered_by_mistake' });
    expect(cancelRequests(await shopState(sites.urls.shop), 'ORD-1024')).toHaveLength(0);
    await expect.poll(() => steward.serviceWorker.evaluate(() => chrome.action.getBadgeText({}))).toBe('1');

    expect(await data(approve(panel, card))).toMatchObject({ status: 'approved', receipt: { action: 'orders.cancel', scope: 'order:ORD-1024' } });
    const reply = await submitted;
    expect(reply.ok).toBe(true);
    const result = (reply as { ok: true; data: { result: Record<string, unknown> } }).data.result;
    expect(result).toMatchObject({
      execution: { status: 'confirmed', certainty: 'confirmed', verified_by: 'postcondition' },
      resource: { ...ORDER, state: 'cancelled' },
      source: 'adapter',
    });
    expect(result.audit_receipt).toMatch(/^audit_\d+$/);

    // The shop's own records: exactly one cancellation, one request, the reason the agent gave.
    const after = await shopState(sites.urls.shop);
    expect(after.counters['ORD-1024']?.cancelled).toBe(1);
    expect(cancelRequests(after, 'ORD-1024')).toHaveLength(1);
    expect(after.orders.find((o) => o.id === 'ORD-1024')?.status).toBe('cancelled');
    await expect(page.locator('#order-status')).toHaveText('Cancelled');
    await expect.poll(() => steward.serviceWorker.evaluate(() => chrome.action.getBadgeText({}))).toBe('');

    // The journal walked every state once, in order; the audit chain holds every step and verifies.
    const j = await journal(panel);
    const head = j.heads.find((h) => h.idempotency_key === 'e2e-cancel-1024')!;
    expect(head.state).toBe('confirmed');
    const states = j.entries
      .filter((e) => e.action_id === head.action_id)
      .sort((a, b) => a.seq - b.seq)
      .map((e) => e.state);
    expect(states).toEqual(['proposed', 'awaiting_approval', 'approved', 'dispatched', 'confirmed']);
    const audit = await data<{ entries: Array<{ kind: string; idempotency_key?: string; receipt_id?: string }> }>(control(panel, { type: 'panel/audit' }));
    const steps = audit.entries.filter((e) => e.idempotency_key === 'e2e-cancel-1024').map((e) => e.kind);
    expect(steps).toEqual(expect.arrayContaining(['proposal', 'observation', 'approval_request', 'approval', 'dispatch', 'confirmation']));
    expect(await data(control(panel, { type: 'panel/audit-verify' }))).toMatchObject({ ok: true });
    const exported = await data<{ jsonl: string }>(control(panel, { type: 'panel/audit-export' }));
    // One line per entry, then the signed head.
    expect(exported.jsonl.trim().split('\n')).toHaveLength(audit.entries.length + 1);
    expect(JSON.parse(exported.jsonl.trim().split('\n').at(-1)!)).toMatchObject({ signed_head: { seq: audit.entries.length - 1 } });
  });

  test('a replay with the same idempotency key returns the first result; the shop saw one request', async ({ steward, sites, openPanel, tabIdOf }) => {
    const { shop, panel, tabId } = await onOrderPage({ steward, sites, openPanel, tabIdOf });
    const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [shop] });
    const before = await observe(panel, tabId);
    const request = cancelAsObserved(before, 'found_cheaper', 'e2e-replay-1024');
    const first = submit(panel, { token, tabId, request });
    await data(approve(panel, await pendingCard(panel, 'orders.cancel')));
    const firstResult = (await data(first)).result;
    expect(firstResult).toMatchObject({ execution: { status: 'confirmed' } });

    // Same key, same input: the stored first result, no second approval, no second request.
    const replay = (await data(submit(panel, { token, tabId, request }))).result;
    expect(replay).toEqual(firstResult);
    // Same key, different input: a conflict, not a second action.
    const conflict = (await data(submit(panel, { token, tabId, request: { ...request, input: { reason: 'other' } } }))).result;
    expect(conflict).toMatchObject({ error: { code: 'IDEMPOTENCY_CONFLICT', retryable: false } });
    expect(await data(control(panel, { type: 'panel/approvals' }))).toEqual({ pending: [] });

    const state = await shopState(sites.urls.shop);
    expect(state.counters['ORD-1024']?.cancelled).toBe(1);
    expect(cancelRequests(state, 'ORD-1024')).toHaveLength(1);
  });

  test('an action outside the token’s scope is refused before anything happens', async ({ steward, sites, openPanel, tabIdOf }) => {
    const { shop, panel, tabId } = await onOrderPage({ steward, sites, openPanel, tabIdOf });
    const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [shop] });
    const clinicOnly = await mint(panel, { scope: ['orders:*'], resource_scope: 'order:*', origins: [new URL(sites.urls.clinic).origin] });
    const requestsBefore = (await shopState(sites.urls.shop)).requests.filter((r) => r.method === 'POST').length;

    const attempts = [
      // A verb the token does not grant (paying is not cancelling).
      { token, request: { action: 'orders.pay', resource: ORDER, input: {}, idempotency_key: 'e2e-scope-pay' } },
      // A resource outside the token's resource_scope.
      { token, request: { action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1025' }, input: { reason: 'other' }, idempotency_key: 'e2e-scope-1025' } },
      // An origin the token does not cover.
      { token: clinicOnly, request: { action: 'orders.cancel', resource: ORDER, input: { reason: 'other' }, idempotency_key: 'e2e-scope-origin' } },
    ];
    for (const a of attempts) {
      const result = (await data(submit(panel, { ...a, tabId }))).result;
      expect(result, a.request.idempotency_key).toMatchObject({ error: { code: 'SCOPE_DENIED', retryable: false } });
    }
    // No card for the person, nothing sent to the shop, the order untouched.
    expect(await data(control(panel, { type: 'panel/approvals' }))).toEqual({ pending: [] });
    const state = await shopState(sites.urls.shop);
    expect(state.requests.filter((r) => r.method === 'POST')).toHaveLength(requestsBefore);
    expect(state.orders.find((o) => o.id === 'ORD-1024')?.status).toBe('awaiting_payment');
    expect(await data(control(panel, { type: 'panel/audit-verify' }))).toMatchObject({ ok: true });
  });

  test('a state changed behind the agent’s back gives PRECONDITION_FAILED with the current state and what can be done now', async ({ steward, sites, openPanel, tabIdOf }) => {
    const { shop, page, panel, tabId } = await onOrderPage({ steward, sites, openPanel, tabIdOf });
    const token = await mint(panel, { scope: ['orders:*'], resource_scope: 'order:ORD-1024', origins: [shop] });
    const planned = await observe(panel, tabId);
    expect(planned.state).toBe('awaiting_payment');

    // The order ships while the agent is thinking; the page shows it once it is reloaded.
    const shipped = await fetch(new URL('/__demo/orders/ORD-1024', sites.urls.shop), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'shipped' }) });
    expect(shipped.ok).toBe(true);
    await page.reload();
    await expect(page.locator('#order-status')).toHaveText('Shipped');

    const result = (
      await data(
        submit(panel, {
          token,
          tabId,
          request: {
            action: 'orders.cancel',
            resource: ORDER,
            preconditions: { expected_state: 'awaiting_payment', state_version: planned.state_version },
            input: { reason: 'ordered_by_mistake' },
            idempotency_key: 'e2e-precondition-1024',
          },
        }),
      )
    ).result as Record<string, unknown>;
    expect(result).toMatchObject({
      error: { code: 'PRECONDITION_FAILED', retryable: false },
      expected: { state: 'awaiting_payment', state_version: planned.state_version },
      current: { state: 'shipped' },
    });
    expect((result.current as { state_version: unknown }).state_version).not.toEqual(planned.state_version);
    expect(result.available_actions).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'orders.track', requires_approval: false })]));
    expect(result.recovery_hint).toEqual(expect.any(String));

    // Nothing was asked of the person, nothing reached the shop.
    expect(await data(control(panel, { type: 'panel/approvals' }))).toEqual({ pending: [] });
    const state = await shopState(sites.urls.shop);
    expect(state.counters['ORD-1024']?.cancelled ?? 0).toBe(0);
    expect(cancelRequests(state, 'ORD-1024')).toHaveLength(0);
  });

  test('reaches an order that is not in the agent’s tab through the adapter’s URL template, verified after navigating', async ({ steward, sites, openPanel, tabIdOf }) => {
    const { shop, page, panel, tabId } = await onOrderPage({ steward, sites, openPanel, tabIdOf });
    // Seeing one order page teaches Steward where the shop adapter applies; then the tab moves on.
    await observe(panel, tabId);
    await page.goto(sites.urls.shop);
    await expect(page.getByRole('heading', { name: 'Your orders' })).toBeVisible();
    const token = await mint(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1025', origins: [shop] });

    const submitted = submit(panel, {
      token,
      tabId,
      request: { action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1025' }, input: { reason: 'other' }, idempotency_key: 'e2e-navigate-1025' },
    });
    const card = await pendingCard(panel, 'orders.cancel');
    expect(card).toMatchObject({ resource: { type: 'order', id: 'ORD-1025' }, state: { state: 'awaiting_payment' } });
    // The agent's tab was taken to the order's page, and the card shows what was observed there.
    await expect(page).toHaveURL(`${shop}/orders/ORD-1025`);
    await data(approve(panel, card));
    expect((await data(submitted)).result).toMatchObject({ execution: { status: 'confirmed', certainty: 'confirmed' }, resource: { id: 'ORD-1025', state: 'cancelled' } });
    const state = await shopState(sites.urls.shop);
    expect(state.counters['ORD-1025']?.cancelled).toBe(1);
    expect(cancelRequests(state, 'ORD-1024')).toHaveLength(0);
    const audit = await data<{ entries: Array<{ kind: string; idempotency_key?: string; details?: { route?: string } }> }>(control(panel, { type: 'panel/audit' }));
    expect(audit.entries.find((e) => e.idempotency_key === 'e2e-navigate-1025' && e.kind === 'observation')?.details?.route).toBe('adapter');
  });
});
