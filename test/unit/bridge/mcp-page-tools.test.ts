import { afterEach, describe, expect, it } from 'vitest';
import type { PageTool } from '../../../bridge/src/mcp/page-tool-map.ts';
import { AGENT, FakeLink, SECRET, connectInMemory, credentialFor, saveCredential, tempHome, textOf } from './mcp-fake-link.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const CLINIC = 'http://localhost:4200';
const TAB = { tab_id: 4, url: `${CLINIC}/book`, title: 'Book', origin: CLINIC, active: true };

function pageTool(action: string, over: Partial<PageTool> = {}): PageTool {
  return {
    action,
    via: 'webmcp',
    description: `${action}: what the page says`,
    read_only: false,
    consequential: true,
    payment: false,
    untrusted_content: false,
    requires_approval: true,
    needs_approval: true,
    input_schema: { type: 'object', properties: { slot: { type: 'string' } }, required: ['slot'] },
    ...over,
  } as PageTool;
}

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`never happened: ${what}`);
};

/** The bridge lists the page tools as soon as it has asked Steward (at start for a client paired before). */
async function listed(session: { client: { listTools(): Promise<{ tools: { name: string }[] }> } }, name: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await session.client.listTools()).tools.some((t) => t.name === name)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${name} was never listed`);
}

const pending = (actionId: string) => ({ error: { code: 'APPROVAL_REQUIRED', message: 'waiting', retryable: true }, action_id: actionId });
const confirmed = (actionId: string) => ({
  action_id: actionId,
  resource: { type: 'page', id: 'localhost:4200/book', state: 'booked', state_version: 'fp-2' },
  execution: { path: 'webmcp', status: 'confirmed', certainty: 'tool_result' },
  output: { text: 'Booked 10:30', truncated: false, untrusted: true },
});

async function pairedSession(link: FakeLink, mode: 'auto' | 'legacy' = 'auto') {
  const home = await tempHome();
  await saveCredential(home, credentialFor('Test Client'));
  let changes = 0;
  const session = await connectInMemory(link, home, { mode, onToolsChanged: () => changes++ });
  closers.push(() => session.close());
  return { session, changes: () => changes };
}

describe("the current tab's page tools over MCP", () => {
  for (const mode of ['auto', 'legacy'] as const) {
    it(`a paired client is offered them as page_ tools, and hears list_changed when Steward says the tab's tools changed (${mode === 'auto' ? '2026-07-28' : '2025'} client)`, async () => {
      let tools = [pageTool('book_slot')];
      const link = new FakeLink({ 'bridge/page-tools': () => ({ ok: true, data: { tab: TAB, tools } }) });
      const { session, changes } = await pairedSession(link, mode);
      await listed(session, 'page_book_slot');
      expect(link.pageToolCalls[0]).toEqual({ auth: { agent_id: AGENT, token: SECRET } });
      const names = async () => (await session.client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('page_'));
      expect(await names()).toEqual(['page_book_slot']);

      const before = changes();
      tools = [pageTool('book_slot'), pageTool('find_slots', { read_only: true, consequential: false, requires_approval: false, needs_approval: false })];
      // Another tab changing says nothing to this client.
      link.emit({ type: 'page-tools-changed', tab_id: 99 });
      link.emit({ type: 'page-tools-changed', tab_id: TAB.tab_id });
      await until(() => changes() > before, 'list_changed');
      expect((await names()).sort()).toEqual(['page_book_slot', 'page_find_slots']);
      const find = (await session.client.listTools()).tools.find((t) => t.name === 'page_find_slots')!;
      expect(find.annotations).toMatchObject({ readOnlyHint: true });
      expect(find.description).toContain('<data>');

      // The page dropped its tools: they go, with list_changed again.
      const again = changes();
      tools = [];
      link.emit({ type: 'page-tools-changed', tab_id: TAB.tab_id });
      await until(() => changes() > again, 'list_changed after the tools went');
      expect(await names()).toEqual([]);
    });
  }

  it("a call goes to bridge/page-tool-call on the tab it was listed for, without Steward's key in the page's input; the same key again reads the action's status", async () => {
    const link = new FakeLink({
      'bridge/page-tools': () => ({ ok: true, data: { tab: TAB, tools: [pageTool('book_slot')] } }),
      'bridge/page-tool-call': () => ({ ok: true, data: { result: pending('act_77') } }),
      'bridge/action-status': () => ({ ok: true, data: { result: confirmed('act_77') } }),
    } as never);
    const { session } = await pairedSession(link);
    await listed(session, 'page_book_slot');

    const first = await session.client.callTool({ name: 'page_book_slot', arguments: { slot: '10:30', steward_idempotency_key: 'book-1030-a' } });
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toContain('page_book_slot again with the same arguments and steward_idempotency_key "book-1030-a"');
    const call = link.calls.find((c) => c.type === 'bridge/page-tool-call')!;
    // With the client's session (this connection's), so the action's audit entries name it.
    expect(call.payload).toEqual({
      auth: { agent_id: AGENT, token: SECRET },
      tab_id: TAB.tab_id,
      tool: 'book_slot',
      input: { slot: '10:30' },
      idempotency_key: 'book-1030-a',
      session: { id: expect.stringMatching(/^mcps_[A-Za-z0-9_-]{22}$/), started_at: expect.any(String) },
    });

    const second = await session.client.callTool({ name: 'page_book_slot', arguments: { slot: '10:30', steward_idempotency_key: 'book-1030-a' } });
    expect(textOf(second)).toMatch(/^Done.*act_77/);
    // The tool's output is the page's: inside the frame.
    expect(textOf(second).indexOf('Booked 10:30')).toBeGreaterThan(textOf(second).indexOf('<data>'));
    expect(link.types().filter((t) => t === 'bridge/page-tool-call')).toHaveLength(1);
    expect(link.calls.at(-1)).toEqual({ type: 'bridge/action-status', payload: { auth: { agent_id: AGENT, token: SECRET }, action_id: 'act_77' } });

    // No key: a fresh one each call, so two calls are two actions.
    await session.client.callTool({ name: 'page_book_slot', arguments: { slot: '11:00' } });
    await session.client.callTool({ name: 'page_book_slot', arguments: { slot: '11:00' } });
    const keys = link.calls.filter((c) => c.type === 'bridge/page-tool-call').map((c) => c.payload.idempotency_key);
    expect(new Set(keys).size).toBe(3);
    const bad = await session.client.callTool({ name: 'page_book_slot', arguments: { slot: '11:00', steward_idempotency_key: 'x y' } });
    expect(bad.structuredContent).toMatchObject({ error: { code: 'INVALID_INPUT' } });
  });

  it('an unpaired client is offered no page tools and asks Steward nothing about them; a revoked token takes them away', async () => {
    const link = new FakeLink({ 'bridge/page-tools': () => ({ ok: true, data: { tab: TAB, tools: [pageTool('book_slot')] } }) });
    const unpaired = await connectInMemory(link, await tempHome());
    closers.push(() => unpaired.close());
    expect((await unpaired.client.listTools()).tools.some((t) => t.name.startsWith('page_'))).toBe(false);
    expect(link.pageToolCalls).toEqual([]);

    let revoked = false;
    const link2 = new FakeLink({
      'bridge/page-tools': () => (revoked ? { ok: false, error: { code: 'TOKEN_INVALID', message: 'revoked', retryable: false } } : { ok: true, data: { tab: TAB, tools: [pageTool('book_slot')] } }),
    });
    const { session, changes } = await pairedSession(link2);
    await listed(session, 'page_book_slot');
    const before = changes();
    revoked = true;
    link2.emit({ type: 'page-tools-changed', tab_id: TAB.tab_id });
    await until(() => changes() > before, 'list_changed after revocation');
    expect((await session.client.listTools()).tools.some((t) => t.name.startsWith('page_'))).toBe(false);
  });
});
