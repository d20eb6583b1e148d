import { describe, expect, it } from 'vitest';
import { isErrorResult, type ActionResult } from '../../../src/protocol/results.ts';
import { createAgentCalls } from '../../../src/mcp/agent-calls.ts';
import { ORIGIN, approveNext, cancelRequest, orderUrl } from '../pipeline/fakes.ts';
import { AGENT, agentSetup } from './agent-fakes.ts';

const refusalCode = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error!.code);

describe('external agent calls: who is calling', () => {
  it('refuses an unknown secret before reading anything', async () => {
    const s = await agentSetup();
    const r = await s.calls['bridge/tabs']({ auth: { agent_id: AGENT, token: 'stw_secret_not-a-real-one-000000000000000000000000' } });
    expect(refusalCode(r)).toBe('TOKEN_INVALID');
    expect(s.events).toEqual([]);
  });

  it('authenticates every call: a token revoked between two calls is refused on the second', async () => {
    const s = await agentSetup();
    expect((await s.calls['bridge/tabs']({ auth: s.auth })).ok).toBe(true);
    await s.h.pipeline.admin.revokeToken(s.tokenId);
    const second = await s.calls['bridge/observe']({ auth: s.auth, tab_id: 1 });
    expect(refusalCode(second)).toBe('TOKEN_INVALID');
    expect(second.ok ? '' : second.error.message).toMatch(/revoked/);
    expect(s.events).toEqual(['tabs', 'taint']);
    // The revocation took the agent's taint with its only token.
    await expect.poll(() => s.ledger.taintOf(AGENT)).toBeUndefined();
  });

  it('refuses a token presented under another agent id', async () => {
    const s = await agentSetup();
    const r = await s.calls['bridge/memory']({ auth: { agent_id: 'agent:mcp-someone-else-9f9f', token: s.auth.token } });
    expect(refusalCode(r)).toBe('TOKEN_INVALID');
    expect(r.ok ? '' : r.error.message).toMatch(/another agent/);
  });

  it('refuses an expired token', async () => {
    const s = await agentSetup();
    s.h.clock.advance(61 * 60_000);
    expect(refusalCode(await s.calls['bridge/tabs']({ auth: s.auth }))).toBe('TOKEN_INVALID');
  });
});

describe('external agent calls: which tabs it sees', () => {
  it('lists only tabs on sites both allowed by the person and named by its token, never the others’ URLs or titles', async () => {
    const s = await agentSetup();
    const r = await s.calls['bridge/tabs']({ auth: s.auth });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.data.tabs.map((t) => [t.tab_id, t.origin])).toEqual([[1, ORIGIN]]);
    const text = JSON.stringify(r);
    for (const hidden of ['4200', 'Patient', 'mail.example', 'Inbox', 'chrome://']) expect(text).not.toContain(hidden);
  });

  it('answers TAB_NOT_FOUND for a tab it may not see, without observing or tainting', async () => {
    const s = await agentSetup();
    for (const tab_id of [2, 3, 4, 99]) {
      expect(refusalCode(await s.calls['bridge/observe']({ auth: s.auth, tab_id }))).toBe('TAB_NOT_FOUND');
      expect(refusalCode(await s.calls['bridge/actions']({ auth: s.auth, tab_id }))).toBe('TAB_NOT_FOUND');
    }
    expect(s.events.filter((e) => e.startsWith('observe'))).toEqual([]);
    expect(await s.ledger.taintOf(AGENT)).toBeUndefined();
  });

  it('opens only URLs on its sites: another allowed site is SITE_NOT_ALLOWED and nothing opens', async () => {
    const s = await agentSetup();
    const r = await s.calls['bridge/open']({ auth: s.auth, url: 'http://localhost:4200/patients/P-7', new_tab: false });
    expect(refusalCode(r)).toBe('SITE_NOT_ALLOWED');
    expect(s.events.some((e) => e.startsWith('open'))).toBe(false);
  });

  it('refuses a URL with credentials or a non-web scheme as INVALID_INPUT before anything opens', async () => {
    const s = await agentSetup();
    for (const url of ['http://user:pw@localhost:4100/orders/ORD-1024', 'http://localhost:4100@127.0.0.1:9/']) {
      const r = await s.calls['bridge/open']({ auth: s.auth, url, new_tab: true });
      expect(refusalCode(r)).toBe('INVALID_INPUT');
      expect(r.ok ? '' : r.error.message).toMatch(/user name or password/);
    }
    expect(s.events.some((e) => e.startsWith('open'))).toBe(false);
  });

  it('opens fenced to its sites; a redirect hop elsewhere is SITE_NOT_ALLOWED naming that origin, and the tab is not its', async () => {
    const s = await agentSetup();
    const r = await s.calls['bridge/open']({ auth: s.auth, url: `${orderUrl('ORD-1024')}?to=${encodeURIComponent('http://127.0.0.1:9/collect')}`, new_tab: true });
    expect(refusalCode(r)).toBe('SITE_NOT_ALLOWED');
    expect(r.ok ? '' : r.error.message).toContain('http://127.0.0.1:9');
    expect(s.events.find((e) => e.startsWith('open'))).toMatch(/fenced to http:\/\/localhost:4100$/);
    expect(await s.ports.currentTab(AGENT)).toBeUndefined();
  });

  it('focuses the tab already showing the URL, or opens a new one when asked (an address it composed once tainted waits for the person), and works there next', async () => {
    const s = await agentSetup();
    const focused = await s.calls['bridge/open']({ auth: s.auth, url: orderUrl('ORD-1024'), new_tab: false });
    expect(focused.ok && [focused.data.tab.tab_id, focused.data.created]).toEqual([1, false]);
    // The focused tab's title reached the client: an address it built is the person's to approve now (quiet sinks).
    const composed = await s.calls['bridge/open']({ auth: s.auth, url: orderUrl('ORD-2048'), new_tab: true });
    expect(refusalCode(composed)).toBe('APPROVAL_REQUIRED');
    await s.ledger.clear(AGENT);
    const opened = await s.calls['bridge/open']({ auth: s.auth, url: orderUrl('ORD-2048'), new_tab: true });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.data.created).toBe(true);
    expect(await s.ports.currentTab(AGENT)).toBe(opened.data.tab.tab_id);
  });

  it('returns nothing of a page that moved to another site while it was observed', async () => {
    const s = await agentSetup();
    const observe = s.ports.observe;
    s.ports.observe = async (tabId) => {
      const r = await observe(tabId);
      return r.ok ? { ...r, state: { ...r.state, url: 'https://mail.example/inbox' } } : r;
    };
    const { createAgentCalls } = await import('../../../src/mcp/agent-calls.ts');
    const r = await createAgentCalls(s.ports)['bridge/observe']({ auth: s.auth, tab_id: 1 });
    expect(refusalCode(r)).toBe('TAB_NOT_FOUND');
    expect(JSON.stringify(r)).not.toContain('Inbox');
  });
});

describe('external agent calls: page content and taint', () => {
  it('marks the agent tainted before it returns the observation', async () => {
    const s = await agentSetup();
    const r = await s.calls['bridge/observe']({ auth: s.auth, tab_id: 1 });
    if (!r.ok) throw new Error(r.error.message);
    expect(s.events).toEqual(['tabs', 'observe 1', 'taint']);
    expect((await s.ledger.taintOf(AGENT))?.source).toMatch(/localhost:4100/);
    expect(r.data.summary).toMatchObject({ resource: { type: 'order', id: 'ORD-1024' }, state: 'awaiting_payment' });
    expect(r.data.rendering.length).toBeGreaterThan(100);
    expect(r.data.tab.resource).toMatchObject({ type: 'order', id: 'ORD-1024', state: 'awaiting_payment' });
  });

  it('returns no page content when the taint mark cannot be written', async () => {
    const s = await agentSetup();
    s.ports.taint = () => Promise.reject(new Error('storage.session unavailable'));
    const { createAgentCalls } = await import('../../../src/mcp/agent-calls.ts');
    await expect(createAgentCalls(s.ports)['bridge/observe']({ auth: s.auth, tab_id: 1 })).rejects.toThrow(/storage/);
  });

  it('answers a query or an expanded ref instead of the whole page', async () => {
    const s = await agentSetup();
    const q = await s.calls['bridge/observe']({ auth: s.auth, tab_id: 1, query: { role: 'button' } });
    if (!q.ok) throw new Error(q.error.message);
    expect(q.data.rendering).toMatch(/^\d+ element\(s\) match/);
    const none = await s.calls['bridge/observe']({ auth: s.auth, tab_id: 1, expand: 'zz99' });
    expect(none.ok && none.data.rendering).toMatch(/Nothing on the page has ref "zz99"/);
  });

  it('lists actions with needs_approval for everything not read-only once tainted, and taints', async () => {
    const s = await agentSetup();
    const r = await s.calls['bridge/actions']({ auth: s.auth, tab_id: 1 });
    if (!r.ok) throw new Error(r.error.message);
    const byName = Object.fromEntries(r.data.actions.map((a) => [a.action, a.needs_approval]));
    expect(byName).toEqual({ 'orders.view': false, 'orders.cancel': true, 'orders.pay': true });
    expect(await s.ledger.taintOf(AGENT)).toBeDefined();
  });
});

describe('external agent calls: actions through the pipeline', () => {
  it('never waits for the person: APPROVAL_REQUIRED at once, IN_PROGRESS on retry, then the one result for the same key', async () => {
    const s = await agentSetup();
    await s.calls['bridge/observe']({ auth: s.auth, tab_id: 1 });
    const request = cancelRequest();
    const first = await s.calls['bridge/execute']({ auth: s.auth, request, untrusted_input: false });
    if (!first.ok) throw new Error(first.error.message);
    expect(isErrorResult(first.data.result) && first.data.result.error.code).toBe('APPROVAL_REQUIRED');
    expect(s.submitted[0]!.agent).toMatchObject({ agent_id: AGENT, token: s.auth.token, wait_for_approval: false, session_id: `ses_${AGENT.replace(/\W/g, '')}_1` });
    expect(s.submitted[0]!.request).toEqual(request);

    const again = await s.calls['bridge/execute']({ auth: s.auth, request, untrusted_input: false });
    expect(again.ok && isErrorResult(again.data.result) && again.data.result.error.code).toBe('IN_PROGRESS');

    const card = await approveNext(s.h);
    expect(card.agent_id).toBe(AGENT);
    await s.h.pipeline.idle();
    const done = await s.calls['bridge/execute']({ auth: s.auth, request, untrusted_input: false });
    if (!done.ok || isErrorResult(done.data.result)) throw new Error('not done');
    expect(done.data.result.execution.status).toBe('confirmed');
    expect(s.h.shop.calls.execute).toHaveLength(1);
    expect(s.events.filter((e) => e === 'audit-changed')).toHaveLength(3);
  });

  it('acts on the resource its last look at the tab showed when the request names none, and refuses one with no such look', async () => {
    const s = await agentSetup();
    const { resource: _named, ...unnamed } = cancelRequest();
    // No look at tab 1 yet: nothing to act on, nothing submitted.
    expect(refusalCode(await s.calls['bridge/execute']({ auth: s.auth, tab_id: 1, request: unnamed, untrusted_input: false }))).toBe('INVALID_INPUT');
    expect(s.submitted).toEqual([]);
    const seen = await s.calls['bridge/observe']({ auth: s.auth, tab_id: 1 });
    if (!seen.ok) throw new Error(seen.error.message);
    const r = await s.calls['bridge/execute']({ auth: s.auth, tab_id: 1, request: unnamed, untrusted_input: false });
    expect(r.ok && isErrorResult(r.data.result) && r.data.result.error.code).toBe('APPROVAL_REQUIRED');
    // Exactly what the look showed, with its site: the same binding as if the agent had copied it.
    expect(s.submitted[0]!.request).toEqual({ ...unnamed, resource: seen.data.summary.resource });
    expect(seen.data.summary.resource).toMatchObject({ type: 'order', id: 'ORD-1024' });
  });

  it('gives an agent the English of a refused DOM step, never the phrase meant for the person', async () => {
    const s = await agentSetup();
    const refused: ActionResult = {
      action_id: 'act_9',
      error: { code: 'EXECUTION_FAILED', message: 'dom.click failed before it took effect: click e6: refused (COVERED) — …', retryable: false, recovery_hint: 'Observe again.' },
      recovery_hint: 'Observe again.',
      error_said: { code: 'act_refused', params: { reason: 'covered', role: 'button', name: 'Pay', cover_role: 'dialog', cover_name: 'Cookies' } },
    };
    const calls = createAgentCalls({ ...s.ports, submit: async () => refused, actionStatus: async () => ({ state: 'failed', finished: true, result: refused }) as never });
    const executed = await calls['bridge/execute']({ auth: s.auth, request: cancelRequest(), untrusted_input: false });
    const status = await calls['bridge/action-status']({ auth: s.auth, action_id: 'act_9', wait_ms: 0 });
    for (const answer of [executed, status]) {
      if (!answer.ok) throw new Error(answer.error.message);
      expect(answer.data.result).toMatchObject({ error: { code: 'EXECUTION_FAILED', message: refused.error.message } });
      expect(JSON.stringify(answer.data.result)).not.toContain('act_refused');
    }
  });

  it('refuses to execute in a tab it may not see', async () => {
    const s = await agentSetup();
    expect(refusalCode(await s.calls['bridge/execute']({ auth: s.auth, tab_id: 2, request: cancelRequest(), untrusted_input: false }))).toBe('TAB_NOT_FOUND');
    expect(s.submitted).toEqual([]);
  });

  it("reports its own action's status, and refuses another agent's as not found", async () => {
    const s = await agentSetup();
    const mine = await s.calls['bridge/execute']({ auth: s.auth, request: cancelRequest(), untrusted_input: false });
    if (!mine.ok) throw new Error(mine.error.message);
    const actionId = mine.data.result.action_id!;
    const status = await s.calls['bridge/action-status']({ auth: s.auth, action_id: actionId, wait_ms: 0 });
    expect(status.ok && isErrorResult(status.data.result) && status.data.result.error.code).toBe('IN_PROGRESS');

    const theirs = await s.h.pipeline.submit(cancelRequest(), { ...s.h.agent, wait_for_approval: false });
    expect(theirs.action_id).toBeDefined();
    const other = await s.calls['bridge/action-status']({ auth: s.auth, action_id: theirs.action_id!, wait_ms: 50_000 });
    expect(refusalCode(other)).toBe('ACTION_NOT_FOUND');
    expect(JSON.stringify(other)).not.toContain('ORD-1024');
  });

  it('a status call that waits answers when the person decides, not when its wait runs out', async () => {
    const s = await agentSetup();
    const mine = await s.calls['bridge/execute']({ auth: s.auth, request: cancelRequest(), untrusted_input: false });
    if (!mine.ok) throw new Error(mine.error.message);
    let answered = false;
    // 50 s: far beyond this test's 5 s budget, so only the decision can end the wait in time.
    const waiting = s.calls['bridge/action-status']({ auth: s.auth, action_id: mine.data.result.action_id!, wait_ms: 50_000 }).finally(() => (answered = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    await approveNext(s.h);
    const status = await waiting;
    if (!status.ok) throw new Error(status.error.message);
    expect(isErrorResult(status.data.result)).toBe(false);
    expect(status.data.result).toMatchObject({ action_id: mine.data.result.action_id, execution: { status: 'confirmed' } });
  });

  it("lists its unfinished actions in memory, not another agent's", async () => {
    const s = await agentSetup();
    await s.calls['bridge/execute']({ auth: s.auth, request: cancelRequest(), untrusted_input: false });
    void s.h.pipeline.submit(cancelRequest({ resource: { type: 'order', id: 'ORD-2048' } }), { ...s.h.agent, wait_for_approval: false });
    const r = await s.calls['bridge/memory']({ auth: s.auth });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.data.unfinished.map((u) => [u.action, u.resource.id, u.status])).toEqual([['orders.cancel', 'ORD-1024', 'awaiting_approval']]);
  });
});

describe("external agent calls: the current tab's page tools", () => {
  const bookSlot = {
    action: 'book_slot',
    via: 'webmcp' as const,
    description: 'Books a slot.',
    read_only: false,
    consequential: true,
    payment: false,
    untrusted_content: false,
    requires_approval: true,
    input_schema: { type: 'object', properties: { slot: { type: 'string' } } },
  };

  it('lists none before the client has a current tab, and reads nothing of the page then', async () => {
    const s = await agentSetup();
    s.pageTools.set(1, { url: orderUrl('ORD-1024'), actions: [bookSlot] });
    expect(await s.calls['bridge/page-tools']({ auth: s.auth })).toEqual({ ok: true, data: { tab: null, tools: [] } });
    expect(await s.ledger.taintOf(AGENT)).toBeUndefined();
  });

  it("lists its current tab's tools with needs_approval, tainting the client first; a report from another site lists none", async () => {
    const s = await agentSetup();
    await s.ports.setCurrentTab(AGENT, 1);
    s.pageTools.set(1, { url: orderUrl('ORD-1024'), actions: [bookSlot] });
    const r = await s.calls['bridge/page-tools']({ auth: s.auth });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.data.tab?.tab_id).toBe(1);
    expect(r.data.tools.map((t) => [t.action, t.needs_approval])).toEqual([['book_slot', true]]);
    expect((await s.ledger.taintOf(AGENT))?.source).toMatch(/WebMCP tools/);

    s.pageTools.set(1, { url: 'http://localhost:4200/book', actions: [bookSlot] });
    const other = await s.calls['bridge/page-tools']({ auth: s.auth });
    expect(other.ok && other.data.tools).toEqual([]);
  });

  it('a call goes through the same pipeline as steward_execute: the resource the tab shows, APPROVAL_REQUIRED at once, the one result for the same key', async () => {
    const s = await agentSetup();
    const call = { auth: s.auth, tab_id: 1, tool: 'orders.cancel', input: { reason: 'changed my mind' }, idempotency_key: 'page-cancel-1024' };
    const first = await s.calls['bridge/page-tool-call'](call);
    if (!first.ok) throw new Error(first.error.message);
    expect(isErrorResult(first.data.result) && first.data.result.error.code).toBe('APPROVAL_REQUIRED');
    // Observed (and tainted) before anything was submitted.
    expect(s.events.slice(0, 3)).toEqual(['tabs', 'observe 1', 'taint']);
    expect(s.submitted[0]!.request).toEqual({
      action: 'orders.cancel',
      resource: expect.objectContaining({ type: 'order', id: 'ORD-1024' }),
      input: call.input,
      idempotency_key: call.idempotency_key,
    });
    expect(s.submitted[0]!.agent).toMatchObject({ agent_id: AGENT, token: s.auth.token, untrusted_input: false, wait_for_approval: false });
    await approveNext(s.h);
    await s.h.pipeline.idle();
    const done = await s.calls['bridge/page-tool-call'](call);
    if (!done.ok || isErrorResult(done.data.result)) throw new Error('not done');
    expect(done.data.result.execution.status).toBe('confirmed');
    expect(s.h.shop.calls.execute).toHaveLength(1);
  });

  it('a tool outside its token or its sites gets the refusal steward_execute gives, and nothing runs', async () => {
    const s = await agentSetup();
    // The token covers orders:* only; a tab on a site it may not use does not exist for it.
    expect(refusalCode(await s.calls['bridge/page-tool-call']({ auth: s.auth, tab_id: 2, tool: 'book_slot', input: {}, idempotency_key: 'page-book-1' }))).toBe('TAB_NOT_FOUND');
    expect(s.submitted).toEqual([]);
    const viaPage = await s.calls['bridge/page-tool-call']({ auth: s.auth, tab_id: 1, tool: 'book_slot', input: {}, idempotency_key: 'page-book-2' });
    const observed = await s.calls['bridge/observe']({ auth: s.auth, tab_id: 1 });
    if (!observed.ok || !viaPage.ok) throw new Error('refused');
    const viaExecute = await s.calls['bridge/execute']({
      auth: s.auth,
      tab_id: 1,
      request: { action: 'book_slot', resource: observed.data.summary.resource, input: {}, idempotency_key: 'page-book-3' },
      untrusted_input: false,
    });
    if (!viaExecute.ok) throw new Error(viaExecute.error.message);
    const code = (r: typeof viaPage) => (r.ok && isErrorResult(r.data.result) ? r.data.result.error.code : 'ran');
    expect(code(viaPage)).not.toBe('ran');
    expect(code(viaPage)).toBe(code(viaExecute));
    expect(s.h.shop.calls.execute).toEqual([]);
  });
});

describe('external agent calls: screenshots', () => {
  const png = { ok: true as const, url: orderUrl('ORD-1024'), mime_type: 'image/png' as const, data: 'iVBORw0KGgo=', width: 800, height: 600 };

  it('needs a tab: without one named or a current one it says so, and a tab it may not see is not captured', async () => {
    const s = await agentSetup();
    s.screenshots.set(2, { ...png, url: 'http://localhost:4200/patients/P-7' });
    expect(refusalCode(await s.calls['bridge/screenshot']({ auth: s.auth }))).toBe('TAB_NOT_FOUND');
    expect(refusalCode(await s.calls['bridge/screenshot']({ auth: s.auth, tab_id: 2 }))).toBe('TAB_NOT_FOUND');
    expect(s.events.filter((e) => e.startsWith('screenshot'))).toEqual([]);
    expect(await s.ledger.taintOf(AGENT)).toBeUndefined();
  });

  it('returns the image of a tab it may use and marks the client tainted before it does; a capture Chrome refuses taints nothing', async () => {
    const s = await agentSetup();
    const refused = await s.calls['bridge/screenshot']({ auth: s.auth, tab_id: 1 });
    expect(refusalCode(refused)).toBe('TAB_NOT_VISIBLE');
    expect(await s.ledger.taintOf(AGENT)).toBeUndefined();

    s.screenshots.set(1, png);
    const r = await s.calls['bridge/screenshot']({ auth: s.auth, tab_id: 1 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.data).toMatchObject({ mime_type: 'image/png', data: png.data, width: 800, tab: { tab_id: 1 } });
    expect((await s.ledger.taintOf(AGENT))?.source).toMatch(/screenshot/);
    expect(await s.ports.currentTab(AGENT)).toBe(1);
    // The tab moved to another site while it was captured: nothing of it is returned.
    s.screenshots.set(1, { ...png, url: 'https://mail.example/inbox' });
    expect(refusalCode(await s.calls['bridge/screenshot']({ auth: s.auth }))).toBe('TAB_NOT_FOUND');
  });
});
