import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpSession } from '../../../src/protocol/mcp-session.ts';
import { readOrCreateHttpToken, serveHttp } from '../../../bridge/src/mcp/index.ts';
import { AGENT, FakeLink, SECRET, connectInMemory, credentialFor, saveCredential, tempHome } from './mcp-fake-link.ts';

/**
 * Which session of a client its actions belong to: the bridge mints one per connection (a stdio
 * process, a 2025-era HTTP session) and sends it with every call that acts; the client never
 * chooses it. A 2026-era HTTP request stands alone: no session.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const waiting = { error: { code: 'APPROVAL_REQUIRED', message: 'The person decides in the side panel.', retryable: false }, action_id: 'act_1' };
const cancel = (key: string, extra: Record<string, unknown> = {}) => ({ action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, idempotency_key: key, ...extra });

/** The sessions the bridge sent with its bridge/execute calls, in order (undefined where it sent none). */
const sessionsSent = (link: FakeLink) => link.calls.filter((c) => c.type === 'bridge/execute').map((c) => (c.payload.session === undefined ? undefined : McpSession.parse(c.payload.session)));

describe('MCP client sessions over stdio', () => {
  it('one connection is one session: its calls share it, and the same client connecting again is another', async () => {
    const home = await tempHome();
    await saveCredential(home, credentialFor('Test Client'));
    const link = new FakeLink({ 'bridge/execute': () => ({ ok: true, data: { result: waiting } }) });
    const before = Date.now();
    const first = await connectInMemory(link, home);
    closers.push(() => first.close());
    await first.client.callTool({ name: 'steward_execute', arguments: cancel('first-session-a') });
    await first.client.callTool({ name: 'steward_execute', arguments: cancel('first-session-b') });
    const second = await connectInMemory(link, home);
    closers.push(() => second.close());
    await second.client.callTool({ name: 'steward_execute', arguments: cancel('second-session-a') });

    const [a, b, c] = sessionsSent(link);
    expect(a).toBeDefined();
    expect(b).toEqual(a);
    expect(c!.id).not.toBe(a!.id);
    // When each connection opened, by the bridge's clock.
    expect(Date.parse(a!.started_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(c!.started_at)).toBeGreaterThanOrEqual(Date.parse(a!.started_at));
    // The same client (the same credential) both times: only the session differs.
    expect(link.calls.map((call) => call.payload.auth)).toEqual([
      { agent_id: AGENT, token: SECRET },
      { agent_id: AGENT, token: SECRET },
      { agent_id: AGENT, token: SECRET },
    ]);
  });

  it('a client cannot choose its session: one named in its arguments is not the one sent', async () => {
    const home = await tempHome();
    await saveCredential(home, credentialFor('Test Client'));
    const link = new FakeLink({ 'bridge/execute': () => ({ ok: true, data: { result: waiting } }) });
    const session = await connectInMemory(link, home);
    closers.push(() => session.close());
    const forged = { id: 'mcps_someone-elses-session-0000', started_at: '2026-12-01T09:00:00.000Z' };
    await session.client.callTool({ name: 'steward_execute', arguments: cancel('forged-session-a', { session: forged }) });
    await session.client.callTool({ name: 'steward_execute', arguments: cancel('forged-session-b') });
    const [withForged, plain] = sessionsSent(link);
    expect(withForged!.id).not.toBe(forged.id);
    expect(withForged).toEqual(plain);
  });
});

describe('MCP client sessions over HTTP', () => {
  async function httpBridge() {
    const home = await tempHome();
    await saveCredential(home, credentialFor('v1 client', AGENT, undefined, 'http:default:v1 client'));
    await saveCredential(home, credentialFor('v2 client', AGENT, undefined, 'http:default:v2 client'));
    const link = new FakeLink({ 'bridge/execute': () => ({ ok: true, data: { result: waiting } }) });
    const server = await serveHttp({ link, home, log: () => undefined, port: 0 });
    closers.push(() => server.close());
    return { link, url: new URL(server.url), bearer: { headers: { Authorization: `Bearer ${await readOrCreateHttpToken(home)}` } } };
  }

  it('a 2025-era client gets a session per Mcp-Session-Id, not the transport id itself', async () => {
    const { link, url, bearer } = await httpBridge();
    const transportIds: string[] = [];
    for (const key of ['http-session-one', 'http-session-two']) {
      const client = new V1Client({ name: 'v1 client', version: '1.32.2' });
      const transport = new V1Transport(url, { requestInit: bearer });
      await client.connect(transport);
      try {
        await client.callTool({ name: 'steward_execute', arguments: cancel(`${key}-a`) });
        await client.callTool({ name: 'steward_execute', arguments: cancel(`${key}-b`) });
        transportIds.push(transport.sessionId!);
      } finally {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    }
    const [oneA, oneB, twoA, twoB] = sessionsSent(link);
    expect(oneB).toEqual(oneA);
    expect(twoB).toEqual(twoA);
    expect(twoA!.id).not.toBe(oneA!.id);
    // What the client presents on every request is not what the audit will record.
    for (const id of transportIds) expect([oneA!.id, twoA!.id].some((recorded) => recorded.includes(id))).toBe(false);
  });

  it('a 2026-era client’s requests stand alone: no session is sent, so its actions stay under the client', async () => {
    const { link, url, bearer } = await httpBridge();
    const client = new Client({ name: 'v2 client', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: bearer }));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      await client.callTool({ name: 'steward_execute', arguments: cancel('modern-request-a') });
    } finally {
      await client.close();
    }
    expect(sessionsSent(link)).toEqual([undefined]);
  });
});
