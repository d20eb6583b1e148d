import { request as httpRequest } from 'node:http';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readOrCreateClientHttpToken, readOrCreateHttpToken, serveHttp } from '../../../bridge/src/mcp/index.ts';
import { FakeLink, SECRET, credentialFor, saveCredential, tempHome, textOf } from './mcp-fake-link.ts';

const V2_AGENT = 'agent:mcp-v2-client-aa11';
const V1_AGENT = 'agent:mcp-v1-client-bb22';
let home: string;
let token: string;
let server: { url: string; close(): Promise<void> };
let port: number;
const link = new FakeLink({ 'bridge/tabs': () => ({ ok: true, data: { tabs: [] } }) });

beforeAll(async () => {
  home = await tempHome();
  await saveCredential(home, credentialFor('v2 client', V2_AGENT, undefined, 'http:default:v2 client'));
  await saveCredential(home, credentialFor('v1 client', V1_AGENT, undefined, 'http:default:v1 client'));
  server = await serveHttp({ link, home, log: () => undefined, port: 0 });
  port = Number(new URL(server.url).port);
  token = await readOrCreateHttpToken(home);
});
afterAll(() => server.close());

/** A raw request, so the test can set any Host, Origin or method a browser or a rebinding page would. */
function raw(options: { method?: string; headers?: Record<string, string | undefined>; body?: string }): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method: options.method ?? 'POST', headers: options.headers as Record<string, string> }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('MCP over HTTP on 127.0.0.1', () => {
  it('keeps its bearer in <home>/http-token (0600), 32 random bytes base64url, the same on every read', async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await readOrCreateHttpToken(home)).toBe(token);
    expect((await stat(path.join(home, 'http-token'))).mode & 0o777).toBe(0o600);
  });

  it('refuses a rebinding Host, a foreign Origin, a missing or wrong bearer and OPTIONS before anything reaches Steward, with no CORS headers', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const cases = [
      { name: 'rebinding Host', request: { headers: { ...json, ...auth, host: `attacker.example:${port}` }, body: initialize }, status: 403, code: 'FORBIDDEN_HOST' },
      { name: 'Host with another port', request: { headers: { ...json, ...auth, host: `127.0.0.1:${port + 1}` }, body: initialize }, status: 403, code: 'FORBIDDEN_HOST' },
      { name: 'foreign Origin', request: { headers: { ...json, ...auth, origin: 'http://attacker.example' }, body: initialize }, status: 403, code: 'FORBIDDEN_ORIGIN' },
      { name: 'localhost page Origin', request: { headers: { ...json, ...auth, origin: 'http://localhost:4001' }, body: initialize }, status: 403, code: 'FORBIDDEN_ORIGIN' },
      { name: 'no bearer', request: { headers: json, body: initialize }, status: 401, code: 'UNAUTHORIZED' },
      { name: 'wrong bearer', request: { headers: { ...json, authorization: `Bearer ${'x'.repeat(43)}` }, body: initialize }, status: 401, code: 'UNAUTHORIZED' },
      { name: 'preflight', request: { method: 'OPTIONS', headers: { origin: 'http://attacker.example', 'access-control-request-method': 'POST' } }, status: 403, code: 'FORBIDDEN_ORIGIN' },
      { name: 'OPTIONS without Origin', request: { method: 'OPTIONS', headers: auth }, status: 403, code: 'FORBIDDEN_METHOD' },
      {
        name: 'body over 1 MB',
        request: { headers: { ...json, ...auth }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } }) },
        status: 413,
        code: 'TOO_LARGE',
      },
    ];
    for (const c of cases) {
      const res = await raw(c.request);
      expect(res.status, c.name).toBe(c.status);
      expect(JSON.parse(res.body), c.name).toEqual({ error: { code: c.code, message: expect.any(String) } });
      expect(
        Object.keys(res.headers).filter((h) => h.startsWith('access-control-')),
        c.name,
      ).toEqual([]);
      if (c.status === 401) expect(res.headers['www-authenticate'], c.name).toMatch(/^Bearer/);
    }
    expect(link.calls).toEqual([]);
  });

  it('serves the v2 client (2026-07-28, stateless per request) with the bearer', async () => {
    const client = new Client({ name: 'v2 client', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect((await client.listTools()).tools).toHaveLength(8);
      const result = await client.callTool({ name: 'steward_tabs', arguments: {} });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(link.calls.at(-1)).toEqual({ type: 'bridge/tabs', payload: { auth: { agent_id: V2_AGENT, token: SECRET } } });
    } finally {
      await client.close();
    }
  });

  it('serves the v1 @modelcontextprotocol/sdk client (2025 era, in a session so its initialize names it) with the bearer', async () => {
    const client = new V1Client({ name: 'v1 client', version: '1.32.2' });
    const transport = new V1Transport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
    await client.connect(transport);
    try {
      expect(transport.sessionId).toBeTruthy();
      expect(transport.protocolVersion).toBe('2025-11-25');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('steward_execute');
      const result = await client.callTool({ name: 'steward_tabs', arguments: {} });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(link.calls.at(-1)).toEqual({ type: 'bridge/tabs', payload: { auth: { agent_id: V1_AGENT, token: SECRET } } });
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  it('binds a pairing to the bearer it was made with: a client with its own bearer that calls itself "v2 client" gets a pairing request, not that client\'s token, and cannot ride on another bearer\'s session', async () => {
    const ownBearer = await readOrCreateClientHttpToken(home, 'Impostor app');
    expect(ownBearer).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(ownBearer).not.toBe(token);
    expect((await stat(path.join(home, 'http-clients'))).mode & 0o777).toBe(0o700);
    const pairRequests = link.calls.filter((c) => c.type === 'bridge/pair-request').length;
    const impostor = new Client({ name: 'v2 client', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await impostor.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${ownBearer}` } } }));
    try {
      const result = await impostor.callTool({ name: 'steward_tabs', arguments: {} });
      expect(result.isError).toBe(true);
      expect(link.calls.filter((c) => c.type === 'bridge/pair-request').length).toBe(pairRequests + 1);
      expect(link.calls.at(-1)!.type).toBe('bridge/pair-request');
    } finally {
      await impostor.close();
    }

    const owner = new V1Client({ name: 'v1 client', version: '1.32.2' });
    const transport = new V1Transport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
    await owner.connect(transport);
    try {
      const hijack = await raw({
        headers: { ...json, authorization: `Bearer ${ownBearer}`, 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'steward_tabs', arguments: {} } }),
      });
      expect(hijack.status).toBe(404);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await owner.close();
    }
  });
});
