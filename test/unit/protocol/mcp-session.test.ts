import { describe, expect, it } from 'vitest';
import { BridgeRequests } from '../../../src/protocol/bridge.ts';
import { mcpSessionIn, withMcpSession } from '../../../src/protocol/mcp-session.ts';

const SESSION = { id: 'mcps_Q2xhdWRlIERlc2t0b3AgMQ', started_at: '2026-12-07T09:00:00.000Z' };
const auth = { agent_id: 'agent:mcp-claude-1a2b', token: 'stw_secret_x' };

describe('an MCP client session as the bridge sends it and the audit records it', () => {
  it('crosses the link only well formed: an id the bridge mints (mcps_…, bounded) and an ISO start', () => {
    const execute = BridgeRequests['bridge/execute'].request;
    const call = (session: unknown) => execute.safeParse({ type: 'bridge/execute', auth, request: {}, session }).success;
    expect(call(SESSION)).toBe(true);
    expect(call(undefined)).toBe(true);
    for (const bad of [
      { ...SESSION, id: 'Q2xhdWRlIERlc2t0b3AgMQ' },
      { ...SESSION, id: 'mcps_short' },
      { ...SESSION, id: `mcps_${'a'.repeat(65)}` },
      { ...SESSION, id: 'mcps_../../../etc/passwd000' },
      { ...SESSION, started_at: 'this morning' },
      { id: SESSION.id },
      'mcps_Q2xhdWRlIERlc2t0b3AgMQ',
    ])
      expect(call(bad), JSON.stringify(bad)).toBe(false);
    expect(
      BridgeRequests['bridge/page-tool-call'].request.safeParse({ type: 'bridge/page-tool-call', auth, tab_id: 1, tool: 'book_slot', input: {}, idempotency_key: 'book-slot-1', session: { id: 'x' } })
        .success,
    ).toBe(false);
  });

  it('is the action’s own in every entry: a session a step’s details brought along (a site’s words) is replaced, or dropped when the action has none', () => {
    const forged = { id: 'mcps_c29tZW9uZSBlbHNlcyBzZXNz', started_at: '2026-01-01T00:00:00.000Z' };
    expect(withMcpSession({ via: 'site_contract', mcp_session: forged }, SESSION)).toEqual({ via: 'site_contract', mcp_session: SESSION });
    expect(withMcpSession({ via: 'site_contract', mcp_session: forged }, undefined)).toEqual({ via: 'site_contract' });
    expect(withMcpSession({ mcp_session: forged }, undefined)).toBeUndefined();
    expect(withMcpSession(undefined, SESSION)).toEqual({ mcp_session: SESSION });
    expect(withMcpSession(undefined, undefined)).toBeUndefined();
    const untouched = { via: 'adapter' };
    expect(withMcpSession(untouched, undefined)).toBe(untouched);
  });

  it('is read back from an entry only when well formed', () => {
    expect(mcpSessionIn({ mcp_session: SESSION })).toEqual(SESSION);
    expect(mcpSessionIn({ mcp_session: { id: 'someone', started_at: SESSION.started_at } })).toBeUndefined();
    expect(mcpSessionIn({ session_id: 's1' })).toBeUndefined();
    expect(mcpSessionIn(undefined)).toBeUndefined();
  });
});
