import { readFileSync } from 'node:fs';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, cancelOrder, mintThroughUi, mintThroughUiWithId, showView, submitAsCopilot, submitNow, swRecords, type PanelFixtures } from '../harness/panel-helpers.ts';
import { control, data, killServiceWorker, liveWorker } from '../harness/pipeline-helpers.ts';
import { startScriptedModel } from '../../sites/model/scripted-server.ts';
import { cancelReply, cancelledReply, configureModel, startGoal } from '../harness/copilot-panel-helpers.ts';
import { connectHttp, connectStdio, launchWithBridge, openSidePanel, pairClient, payloadOf, startHttpBridge, type HttpBridge, type McpClient } from '../harness/bridge-harness.ts';

/** Builds some history through the panel: two tokens minted, one revoked, one refused action. */
async function history(fx: PanelFixtures) {
  const page = await fx.steward.context.newPage();
  await page.goto(`${fx.sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await fx.openPanel(page);
  const tabId = await fx.tabIdOf(page);
  const origin = new URL(fx.sites.urls.shop).origin;
  const keep = await mintThroughUi(panel, { scopes: 'orders:read', resources: 'order:*', origins: origin });
  const gone = await mintThroughUiWithId(panel, { scopes: 'orders:cancel', resources: `order:${SHOP_ORDER}`, origins: origin });
  await panel
    .getByRole('article', { name: new RegExp(`^${gone.token_id}`) })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await panel.getByRole('button', { name: 'Yes, revoke' }).click();
  await submitNow(panel, tabId, gone.secret, cancelOrder('panel-activity-1'));
  return { panel, keep, gone, tabId, origin };
}

test('lists the audit log per action, searchable and filterable, with each step expandable', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = { steward, sites, openPanel, tabIdOf };
  const { panel, gone } = await history(fx);
  await showView(panel, 'Activity');
  const log = panel.getByRole('list', { name: 'Activity log' });
  const stored = await swRecords(fx.steward.serviceWorker, 'audit');
  expect(stored.length).toBeGreaterThan(3);
  // Every stored entry is in some group; the refused cancel is one group with its steps.
  await expect(panel.getByText(new RegExp(`\\(${stored.length} entries\\)`))).toBeVisible();
  const refused = log.getByRole('button', { name: new RegExp(`^orders\\.cancel on order:${SHOP_ORDER}`) });
  await expect(refused).toHaveAttribute('aria-expanded', 'false');
  // How it ended, in words: the revoked token stopped it before anything ran.
  await expect(refused).toContainText('Refused before it ran');
  // Why, in words; the code itself is one click away, in its steps.
  await expect(refused.getByTestId('activity-why')).toHaveText('the token is missing, expired or revoked');
  await expect(refused).not.toContainText('TOKEN_INVALID');
  await refused.click();
  await expect(refused).toHaveAttribute('aria-expanded', 'true');
  const steps = panel.getByRole('list', { name: `Steps of orders.cancel on order:${SHOP_ORDER}` });
  const cancelSteps = stored.filter((e) => e.idempotency_key === 'panel-activity-1');
  expect(cancelSteps.length).toBeGreaterThan(0);
  await expect(steps.getByRole('listitem')).toHaveCount(cancelSteps.length);
  await expect(steps).toContainText('TOKEN_INVALID');

  // Search across steps: the revoked token's id finds its mint/revoke entries and the refused action.
  await panel.getByRole('searchbox', { name: 'Search' }).fill(gone.token_id);
  await expect(log.getByRole('button', { name: /^orders\.cancel/ })).toHaveCount(1);
  await panel.getByRole('searchbox', { name: 'Search' }).fill('no-such-thing-at-all');
  await expect(log.getByRole('listitem')).toHaveCount(0);
  await panel.getByRole('searchbox', { name: 'Search' }).fill('');
  // Filter by outcome: only groups whose last step has that outcome remain.
  const outcome = panel.getByRole('combobox', { name: 'Outcome' });
  const lastOfCancel = String(cancelSteps.at(-1)!.outcome ?? cancelSteps.at(-1)!.kind);
  await outcome.selectOption(lastOfCancel);
  await expect(log.getByRole('button', { name: /^orders\.cancel/ })).toHaveCount(1);
  await panel.getByRole('combobox', { name: 'Action' }).selectOption('orders.cancel');
  await expect(log.locator(':scope > li')).toHaveCount(1);
});

test('a co-pilot run’s actions are under what the person asked it, an MCP client’s under the client’s visit; Stop reads “Stopped by you”, Deny “Denied by you”', async ({
  steward,
  sites,
  openPanel,
  tabIdOf,
}) => {
  const model = await startScriptedModel();
  try {
    model.script([cancelReply, cancelledReply]);
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    const origin = new URL(sites.urls.shop).origin;

    // An MCP client's agent (minted here, so without a paired name: visible-agent.spec.ts pairs one) asks to cancel; the person denies it.
    const client = 'agent:mcp-e2e-client-1a2b';
    const { secret } = await data<{ secret: string }>(
      control(panel, { type: 'panel/token-mint', agent_id: client, scope: ['orders:cancel'], resource_scope: `order:${SHOP_ORDER}`, origins: [origin], ttl_ms: 600_000 }),
    );
    const asked = await control(panel, { type: 'agent/submit', agent_id: client, token: secret, tabId, request: cancelOrder('panel-activity-client'), wait_for_approval: false });
    expect(asked).toMatchObject({ ok: true, data: { result: { error: { code: 'APPROVAL_REQUIRED' } } } });
    await showView(panel, 'Approvals');
    await panel
      .getByRole('article', { name: new RegExp(`asked by ${client}$`) })
      .getByRole('button', { name: 'Deny', exact: true })
      .click();
    await expect(panel.getByRole('article', { name: new RegExp(`asked by ${client}$`) })).toHaveCount(0);

    // A co-pilot run waits on its card; the person presses Stop.
    await configureModel(panel, model.url);
    const goal = `cancel order ${SHOP_ORDER}`;
    const run = await startGoal(panel, goal);
    await expect(run.getByRole('article')).toBeVisible();
    await run.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(run.getByRole('region', { name: 'Stopped by you' })).toBeVisible();

    await showView(panel, 'Activity');
    const log = panel.getByRole('list', { name: 'Activity log' });
    const runTask = log.getByRole('listitem', { name: goal, exact: true });
    await expect(runTask.getByRole('heading', { level: 3 })).toHaveText(goal);
    await expect(runTask.locator('.task-head')).toContainText('Stopped by you');
    await expect(runTask.getByRole('button', { name: new RegExp(`^orders\\.cancel on order:${SHOP_ORDER}`) })).toContainText('Stopped by you');
    // It acted through no MCP session (straight on the agent door): a visit, under its agent id while it has no paired name.
    const clientTask = log.getByRole('listitem', { name: new RegExp(`^${client}, from `) });
    await expect(clientTask.getByRole('button', { name: /^orders\.cancel/ })).toContainText('Denied by you');
    await expect(clientTask).not.toContainText('Stopped by you');

    // What the audit holds: the Stop and the Deny apart.
    const audit = (await swRecords(steward.serviceWorker, 'audit')) as Array<{ agent_id: string; kind: string; outcome?: string; details?: Record<string, unknown> }>;
    expect(audit.find((e) => e.agent_id === client && e.kind === 'denial')).toMatchObject({ outcome: 'denied' });
    expect(audit.find((e) => e.agent_id.startsWith('agent:copilot-run-') && e.kind === 'denial')).toMatchObject({ outcome: 'stopped', details: { stopped_by: 'user:local' } });
  } finally {
    await model.stop();
  }
});

test('an MCP client connecting twice, acting once each time, is two groups under its name: one per session, headed by when it started', async ({ sites }) => {
  const name = 'Session Helper';
  const world = await launchWithBridge({ nativeWebMcp: false, allowSites: [sites.urls.shop] });
  const clients: McpClient[] = [];
  try {
    const panel = await openSidePanel(world);
    // orders.track is read-only: each asks once and is answered at once (an unshipped order is refused before anything runs).
    const track = (tabId: number, key: string) => ({ tab_id: tabId, action: 'orders.track', resource: { type: 'order', id: SHOP_ORDER }, idempotency_key: key });

    // The first conversation: the client is paired, opens the order and acts once.
    const first = await connectStdio(world, 'v2', name);
    clients.push(first);
    await pairClient(first, panel, { sites: [new URL(sites.urls.shop).origin], scopes: 'orders:*' });
    const opened = await first.call('steward_open', { url: `${sites.urls.shop}/orders/${SHOP_ORDER}` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = (payloadOf(opened) as { tab: { tab_id: number } }).tab.tab_id;
    await first.call('steward_execute', track(tabId, 'panel-activity-session-1'));
    await first.close();
    // The client starts again (its credential file keeps the pairing): a second conversation, acting once.
    const second = await connectStdio(world, 'v2', name);
    clients.push(second);
    await second.call('steward_execute', track(tabId, 'panel-activity-session-2'));
    await second.close();

    // What the audit holds: each action's entries name one session, minted by the bridge, not the same one.
    const audit = (await swRecords(world.serviceWorker, 'audit')) as Array<{ idempotency_key?: string; details?: { mcp_session?: { id?: string } } }>;
    const sessionsOf = (key: string) => [...new Set(audit.filter((e) => e.idempotency_key === key).map((e) => e.details?.mcp_session?.id))];
    const [one, two] = [sessionsOf('panel-activity-session-1'), sessionsOf('panel-activity-session-2')];
    expect(one).toEqual([expect.stringMatching(/^mcps_/)]);
    expect(two).toEqual([expect.stringMatching(/^mcps_/)]);
    expect(two[0]).not.toBe(one[0]);

    await showView(panel, 'Activity');
    const log = panel.getByRole('list', { name: 'Activity log' });
    const sessions = log.getByRole('listitem', { name: new RegExp(`^${name}, session started `) });
    await expect(sessions).toHaveCount(2);
    for (const session of await sessions.all()) {
      await expect(session.getByRole('button', { name: /^orders\.track on order:/ })).toHaveCount(1);
      await expect(session.locator('.task-head')).toContainText('MCP client session');
    }
    // The pairing itself belongs to no conversation: it stays under the client's name alone.
    await expect(log.getByRole('listitem', { name, exact: true })).toHaveCount(1);
    // Search reads the headings: the client's name finds its three groups, "session started" its two sessions.
    const search = panel.getByRole('searchbox', { name: 'Search' });
    await search.fill(name);
    await expect(log.locator(':scope > li')).toHaveCount(3);
    await search.fill('session started');
    await expect(log.locator(':scope > li')).toHaveCount(2);
    await expect(sessions).toHaveCount(2);
    await search.fill('');
    // The chain covers the sessions like any other field.
    await panel.getByRole('button', { name: 'Verify chain' }).click();
    await expect(panel.getByRole('status').filter({ hasText: 'Chain valid' })).toBeVisible();
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await world.close();
  }
});

test('a 2026-era client over HTTP, which has no sessions, is one visit under its name while it keeps acting: headed “from”, never “session started”, and found by its name', async ({ sites }) => {
  const name = 'Stateless Helper';
  const world = await launchWithBridge({ nativeWebMcp: false, allowSites: [sites.urls.shop] });
  let http: HttpBridge | undefined;
  let client: McpClient | undefined;
  try {
    const panel = await openSidePanel(world);
    http = await startHttpBridge(world);
    // The v2 SDK's client over HTTP on 2026-07-28: every request stands alone, its name in each request's envelope.
    client = await connectHttp(http, 'v2', name, { protocol: '2026-07-28' });
    await pairClient(client, panel, { sites: [new URL(sites.urls.shop).origin], scopes: 'orders:*' });
    const opened = await client.call('steward_open', { url: `${sites.urls.shop}/orders/${SHOP_ORDER}` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = (payloadOf(opened) as { tab: { tab_id: number } }).tab.tab_id;
    const track = (key: string) => ({ tab_id: tabId, action: 'orders.track', resource: { type: 'order', id: SHOP_ORDER }, idempotency_key: key });
    await client.call('steward_execute', track('panel-activity-visit-1'));
    await client.call('steward_execute', track('panel-activity-visit-2'));

    // What the audit holds: the actions, and no session (the protocol has none to carry).
    const audit = (await swRecords(world.serviceWorker, 'audit')) as Array<{ idempotency_key?: string; details?: { mcp_session?: unknown } }>;
    const mine = audit.filter((e) => e.idempotency_key?.startsWith('panel-activity-visit-'));
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine.filter((e) => e.details?.mcp_session !== undefined)).toEqual([]);

    await showView(panel, 'Activity');
    const log = panel.getByRole('list', { name: 'Activity log' });
    // Paired and acting within minutes: one visit, its pairing inside.
    const visit = log.getByRole('listitem', { name: new RegExp(`^${name}, from `) });
    await expect(visit).toHaveCount(1);
    await expect(visit.getByRole('button', { name: /^orders\.track on order:/ })).toHaveCount(2);
    await expect(visit.locator('.task-head')).toContainText('MCP client visit, grouped by time (no session)');
    await expect(log.getByRole('listitem', { name: new RegExp(`^${name}`) })).toHaveCount(1);
    // Search reads the heading: the client's name finds the visit; words of a session's heading find nothing.
    const search = panel.getByRole('searchbox', { name: 'Search' });
    await search.fill(name);
    await expect(visit.getByRole('button', { name: /^orders\.track on order:/ })).toHaveCount(2);
    await search.fill('session started');
    await expect(log.locator(':scope > li')).toHaveCount(0);
  } finally {
    await client?.close().catch(() => undefined);
    await http?.stop();
    await world.close();
  }
});

test('the Site filter keeps the actions that reached that site', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = { steward, sites, openPanel, tabIdOf };
  const { panel, tabId, origin } = await history(fx);
  // A valid token this time: the cancel reaches the shop (observed there) and waits for approval.
  const cancel = await mintThroughUi(panel, { scopes: 'orders:cancel', resources: `order:${SHOP_ORDER}`, origins: origin });
  await submitAsCopilot(panel, tabId, cancel, cancelOrder('panel-activity-2'), 'reached');
  await showView(panel, 'Approvals');
  await expect(panel.getByRole('article').filter({ hasText: 'orders.cancel' })).toHaveCount(1);
  await showView(panel, 'Activity');
  const log = panel.getByRole('list', { name: 'Activity log' });
  await expect(log.getByRole('button', { name: /^orders\.cancel/ })).toHaveCount(2);
  const stored = await swRecords(fx.steward.serviceWorker, 'audit');
  const observed = stored.find((e) => e.idempotency_key === 'panel-activity-2' && e.kind === 'observation');
  expect((observed?.details as { origin?: string } | undefined)?.origin).toBe(origin);
  await panel.getByRole('combobox', { name: 'Site' }).selectOption(origin);
  // The refused cancel never reached a site; the one that did stays.
  await expect(log.getByRole('button', { name: /^orders\.cancel/ })).toHaveCount(1);
  await expect(log.getByRole('button', { name: /^orders\.cancel/ })).toContainText('Waiting for you');
  await log.getByRole('button', { name: /^orders\.cancel/ }).click();
  await expect(panel.getByRole('list', { name: `Steps of orders.cancel on order:${SHOP_ORDER}` })).toContainText('approval request — waiting for approval');
});

test('Verify chain reports a valid log, then the exact entry someone tampered with', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = { steward, sites, openPanel, tabIdOf };
  const { panel } = await history(fx);
  await showView(panel, 'Activity');
  await panel.getByRole('button', { name: 'Verify chain' }).click();
  const count = (await swRecords(fx.steward.serviceWorker, 'audit')).length;
  await expect(panel.getByRole('status').filter({ hasText: 'Chain valid' })).toHaveText(`Chain valid: all ${count} entries are intact and in order.`);

  // Edit one stored record behind Steward's back, as someone with access to the profile could.
  const tampered = 2;
  await fx.steward.serviceWorker.evaluate(
    (seq) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('steward');
        open.onsuccess = () => {
          const store = open.result.transaction('audit', 'readwrite').objectStore('audit');
          const get = store.get(seq);
          get.onsuccess = () => {
            const put = store.put({ ...get.result, outcome: 'nothing_to_see_here' });
            put.onsuccess = () => (open.result.close(), resolve());
            put.onerror = () => reject(put.error);
          };
        };
        open.onerror = () => reject(open.error);
      }),
    tampered,
  );
  await panel.getByRole('button', { name: 'Verify chain' }).click();
  const alert = panel.getByRole('alert').filter({ hasText: 'Chain broken' });
  await expect(alert).toContainText(`Chain broken at entry #${tampered}`);
  await expect(alert).toContainText('edited');
});

test('Verify chain notices the newest entries removed while Steward was stopped, and still does after the next action', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = { steward, sites, openPanel, tabIdOf };
  const { panel, tabId } = await history(fx);
  const count = (await swRecords(steward.serviceWorker, 'audit')).length;
  // The service worker stops (MV3 does this whenever it idles); someone deletes the newest two entries.
  const stoppedAt = Date.now();
  await killServiceWorker(panel, steward.serviceWorker);
  await panel.evaluate(
    (seqs) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('steward');
        open.onsuccess = () => {
          const tx = open.result.transaction('audit', 'readwrite');
          for (const seq of seqs) tx.objectStore('audit').delete(seq);
          tx.oncomplete = () => (open.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
        open.onerror = () => reject(open.error);
      }),
    [count - 1, count - 2],
  );
  const worker = await liveWorker(steward.context, steward.extensionId, stoppedAt - 1);
  await panel.reload();
  await showView(panel, 'Activity');
  await panel.getByRole('button', { name: 'Verify chain' }).click();
  const alert = panel.getByRole('alert').filter({ hasText: 'Chain broken' });
  await expect(alert).toContainText(`Chain broken at entry #${count - 2}`);
  await expect(alert).toContainText('truncated');

  // The agent acts again: the new worker does not quietly reuse the removed entries' numbers and
  // re-anchor on the shortened log. The break is written first, and the log stays reported broken.
  const token = await mintThroughUi(panel, { scopes: 'orders:read', resources: 'order:*', origins: new URL(sites.urls.shop).origin });
  await submitNow(panel, tabId, token, { action: 'orders.view', resource: { type: 'order', id: SHOP_ORDER }, idempotency_key: 'panel-activity-after-break' });
  const stored = await swRecords(worker, 'audit');
  expect(stored[count - 2]).toMatchObject({ seq: count - 2, kind: 'recovery', agent_id: 'agent:steward', outcome: 'audit_chain_broken', details: { problem: 'truncated' } });
  const after = stored.filter((e) => e.idempotency_key === 'panel-activity-after-break');
  expect(after.length).toBeGreaterThan(0);
  expect(after.every((e) => (e.seq as number) > count - 2)).toBe(true);
  await showView(panel, 'Activity');
  // The Activity view says so on its own, from the entry the log wrote about itself: its kind in words, its own record one click away…
  const recorded = panel.getByRole('alert').filter({ hasText: 'Steward found this log broken' });
  await expect(recorded).toContainText(`recorded as entry #${count - 2}): the newest entries were removed (the log was truncated).`);
  await recorded.getByText('Details').click();
  await expect(recorded.locator('details')).toContainText(`the log ends at entry ${count - 3} but Steward last wrote entry ${count - 1}`);
  // …and Verify chain still fails there.
  await panel.getByRole('button', { name: 'Verify chain' }).click();
  await expect(alert).toContainText(`Chain broken at entry #${count - 2}`);
  await expect(alert).toContainText(`entry ${count - 2} records that Steward found the log broken`);
});

test('Export downloads the whole log as JSON Lines, exactly as stored', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = { steward, sites, openPanel, tabIdOf };
  const { panel } = await history(fx);
  await showView(panel, 'Activity');
  const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByRole('button', { name: 'Export' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^steward-audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.jsonl$/);
  const text = readFileSync((await download.path())!, 'utf8');
  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { seq: number; hash: string });
  const stored = (await swRecords(fx.steward.serviceWorker, 'audit')) as Array<{ seq: number; hash: string }>;
  // Every entry, then the head Steward signed: its seq and hash are the newest entry's.
  expect(lines.slice(0, -1).map((l) => [l.seq, l.hash])).toEqual(stored.map((s) => [s.seq, s.hash]));
  expect(lines.at(-1)).toEqual({ signed_head: { seq: stored.at(-1)!.seq, hash: stored.at(-1)!.hash, mac: expect.stringMatching(/^[0-9a-f]{64}$/) } });
  await expect(panel.getByRole('status').filter({ hasText: 'Exported' })).toHaveText(`Exported ${stored.length} entries as JSON Lines, ending with Steward's signed head.`);

  // The file verifies in the panel; cut short (newest entry and head dropped), it does not.
  const file = panel.getByLabel('Verify a downloaded log…');
  await file.setInputFiles({ name: 'audit.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(text) });
  await expect(panel.getByRole('status').filter({ hasText: 'Downloaded log valid' })).toHaveText(
    `Downloaded log valid: all ${stored.length} entries are intact and in order, and the head is signed by this Steward.`,
  );
  const cut = text.trimEnd().split('\n').slice(0, -2).join('\n');
  await file.setInputFiles({ name: 'audit-cut.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(cut) });
  await expect(panel.getByRole('alert').filter({ hasText: 'Downloaded log broken' })).toContainText('no signed head');
});
