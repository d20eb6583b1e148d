import { inContentScript } from '../harness/content-world.ts';
import { test, expect } from '../harness/fixtures.ts';
import { COPILOT, approvalOf, control, data, mintWithId, pendingCard, shopOrderPage, shopState, submit } from '../harness/pipeline-helpers.ts';

/**
 * Only the side panel may approve, mint a token, read the audit log or act as an agent. A hostile
 * page (main world) and a compromised content script (code run inside Steward's own isolated
 * world, through CDP) try all of it; the service worker refuses each one by sender, and nothing
 * changes: the card stays pending, no token appears, the shop sees nothing.
 */

test('a page and a content script cannot approve, mint, submit or read the audit log', async ({ steward, sites, openPanel, tabIdOf }) => {
  const shop = new URL(sites.urls.shop).origin;
  const page = await shopOrderPage(steward.context, sites.urls.shop);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  const { token_id, secret: token } = await mintWithId(panel, { scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [shop] });
  const queued = (
    await data(
      submit(panel, {
        token,
        tabId,
        wait_for_approval: false,
        request: { action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, input: { reason: 'other' }, idempotency_key: 'e2e-forged-target' },
      }),
    )
  ).result;
  expect(queued).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
  const card = await pendingCard(panel, 'orders.cancel');
  const auditBefore = (await data<{ entries: unknown[] }>(control(panel, { type: 'panel/audit' }))).entries.length;

  const forged = {
    approve: approvalOf(card),
    mint: { type: 'panel/token-mint', agent_id: 'agent:evil', scope: ['*:*'], resource_scope: '*', origins: [shop], payment: true, ttl_ms: 3_600_000 },
    submit: {
      type: 'agent/submit',
      agent_id: COPILOT,
      token,
      tabId,
      wait_for_approval: false,
      request: { action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, input: { reason: 'other' }, idempotency_key: 'e2e-forged-submit' },
    },
    audit: { type: 'panel/audit-export' },
    revoke: { type: 'panel/token-revoke', token_id },
  };

  // 1. The page's own JavaScript: externally_connectable is closed, nothing is delivered.
  const fromPage = await page.evaluate(
    async ([extensionId, messages]) => {
      const runtime = (globalThis as { chrome?: { runtime?: { sendMessage?: (id: string, m: unknown) => Promise<unknown> } } }).chrome?.runtime;
      const out: Record<string, string> = {};
      for (const [name, m] of Object.entries(messages)) {
        if (!runtime?.sendMessage) out[name] = 'no chrome.runtime in the page';
        else
          out[name] = await runtime.sendMessage(extensionId, m).then(
            (r) => `delivered: ${JSON.stringify(r)}`,
            (e: unknown) => `refused: ${String(e)}`,
          );
      }
      return out;
    },
    [steward.extensionId, forged] as const,
  );
  // The exact refusal: no chrome.runtime exists in the page, so a delivered (or merely refused) message fails this.
  expect(fromPage).toEqual(Object.fromEntries(Object.keys(forged).map((name) => [name, 'no chrome.runtime in the page'])));

  // 2. Steward's own content script, as if compromised by the page: the worker refuses by sender.
  const fromContent = (await inContentScript(
    page,
    `(async () => { const out = {}; for (const [name, m] of Object.entries(${JSON.stringify(forged)})) out[name] = await chrome.runtime.sendMessage(m); return out; })()`,
  )) as Record<string, { ok: boolean; error?: { code: string } }>;
  for (const name of Object.keys(forged)) expect(fromContent[name], name).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });

  // Nothing changed: the card is still pending, no token was minted or revoked, nothing reached the shop.
  expect((await data<{ pending: Array<{ request_id: string }> }>(control(panel, { type: 'panel/approvals' }))).pending.map((c) => c.request_id)).toEqual([card.request_id]);
  const tokens = (await data<{ tokens: Array<{ token: { agent_id: string; token_id: string }; status: string }> }>(control(panel, { type: 'panel/tokens' }))).tokens;
  expect(tokens.map((t) => [t.token.token_id, t.status])).toEqual([[token_id, 'active']]);
  const shopNow = await shopState(sites.urls.shop);
  expect(shopNow.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  expect((await data<{ entries: unknown[] }>(control(panel, { type: 'panel/audit' }))).entries.length).toBe(auditBefore);

  // The real panel still decides.
  const denied = await data(
    control(panel, { type: 'panel/approval-decide', decision: { request_id: card.request_id, decision: 'deny', decided_by: 'user:local', decided_at: new Date().toISOString(), reason: 'not now' } }),
  );
  expect(denied).toEqual({ status: 'denied' });
  await expect
    .poll(
      async () =>
        (
          await data(
            submit(panel, { token, tabId, request: { action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, input: { reason: 'other' }, idempotency_key: 'e2e-forged-target' } }),
          )
        ).result,
    )
    .toMatchObject({
      error: { code: 'APPROVAL_DENIED' },
    });
  expect((await shopState(sites.urls.shop)).orders.find((o) => o.id === 'ORD-1024')?.status).toBe('awaiting_payment');
});
