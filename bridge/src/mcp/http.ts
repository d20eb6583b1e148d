import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localhostHostValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type McpRequestContext, type McpServer } from '@modelcontextprotocol/server';
import type { BearerId, HttpBearers } from './http-token.ts';
import type { StewardServerFactory } from './server.ts';
import { newMcpSession } from './session.ts';

const MAX_BODY_BYTES = 1024 * 1024;
/**
 * A local process must not hold the bridge's sockets open by trickling bytes (slow-loris): the
 * headers must arrive within HEADERS_TIMEOUT_MS and the whole request within REQUEST_TIMEOUT_MS
 * (Node answers 408 and closes), a kept-alive connection idle between requests closes after
 * KEEP_ALIVE_MS, and a socket with no bytes either way closes after IDLE_MS. Node checks the
 * first two every CHECK_INTERVAL_MS. Only an authenticated event stream (GET) may stay quiet longer.
 */
const HTTP_LIMITS = { HEADERS_TIMEOUT_MS: 5_000, REQUEST_TIMEOUT_MS: 15_000, KEEP_ALIVE_MS: 5_000, IDLE_MS: 120_000, CHECK_INTERVAL_MS: 1_000 } as const;
/** 2025-era clients get a session each (their identity comes from `initialize`); bounded, the longest idle one closed first, so sessions a client abandoned cannot grow memory without end. */
const MAX_LEGACY_SESSIONS = 64;

interface HttpGuardOptions {
  port: number;
  bearers: HttpBearers;
  allowedOrigins: readonly string[];
}

function refuse(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { code, message } }));
}

/**
 * Everything checked before the SDK sees a request: a Host naming this loopback port exactly (a
 * DNS-rebinding page's request carries its own host name), no browser Origin unless allowed, the
 * bearer, and the body's size. No CORS headers are ever sent, so a page cannot read an answer.
 */
async function guard(req: IncomingMessage, res: ServerResponse, options: HttpGuardOptions): Promise<boolean> {
  const hosts = [`127.0.0.1:${options.port}`, `localhost:${options.port}`, `[::1]:${options.port}`];
  if (!hosts.includes(req.headers.host ?? '')) {
    refuse(res, 403, 'FORBIDDEN_HOST', 'The Host header must name this loopback address and port.');
    return false;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !options.allowedOrigins.includes(origin)) {
    refuse(res, 403, 'FORBIDDEN_ORIGIN', 'Requests from web pages are not accepted.');
    return false;
  }
  if (req.method === 'OPTIONS') {
    refuse(res, 403, 'FORBIDDEN_METHOD', 'Cross-origin requests are not accepted.');
    return false;
  }
  if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
    refuse(res, 404, 'NOT_FOUND', 'The MCP endpoint is /mcp.');
    return false;
  }
  if ((await options.bearers.identify(req.headers.authorization)) === undefined) {
    refuse(res, 401, 'UNAUTHORIZED', 'Missing or wrong bearer token; `steward-bridge http-token` prints it.', { 'www-authenticate': 'Bearer realm="steward-bridge"' });
    return false;
  }
  const length = Number(req.headers['content-length'] ?? 0);
  if (!Number.isFinite(length) || length > MAX_BODY_BYTES) {
    refuse(res, 413, 'TOO_LARGE', 'The request body is over 1 MB.');
    return false;
  }
  return true;
}

/** Which bearer the request came with, for the server instance (its pairings belong to that bearer). */
const authOf = (bearer: BearerId) => ({ token: 'not-kept', clientId: bearer, scopes: [] });

/** 2025-era (v1 SDK) clients: a sessionful streamable HTTP transport per session, as the SDK documents next to a strict modern handler. */
class LegacySessions {
  private readonly sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: McpServer; bearer: BearerId }>();

  constructor(
    private readonly factory: StewardServerFactory,
    private readonly log: (line: string) => void,
  ) {}

  async handle(request: Request, bearer: BearerId): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = this.sessions.get(id);
      // A session belongs to the bearer that opened it: another client's bearer cannot ride on it.
      if (!session || session.bearer !== bearer) return Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: 404 });
      // Most recently used last, so a full table drops the one idle longest.
      this.sessions.delete(id);
      this.sessions.set(id, session);
      return session.transport.handleRequest(request);
    }
    if (request.method !== 'POST') return Response.json({ error: { code: 'METHOD_NOT_ALLOWED', message: 'Open a session with initialize first.' } }, { status: 405 });
    if (this.sessions.size >= MAX_LEGACY_SESSIONS) await this.dropIdlest();
    // A session of its own for the audit, minted here: the transport's id is the client's to present, not to be recorded.
    const server = this.factory({ era: 'legacy', requestInfo: request, authInfo: authOf(bearer) }, newMcpSession());
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_BODY_BYTES,
      onsessioninitialized: (sessionId) => {
        this.sessions.set(sessionId, { transport, server, bearer });
      },
      onsessionclosed: (sessionId) => {
        this.sessions.delete(sessionId);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (transport.sessionId === undefined) await server.close();
    else this.log(`steward-bridge: HTTP session ${transport.sessionId.slice(0, 8)}… opened (2025-era client)`);
    return response;
  }

  private async dropIdlest(): Promise<void> {
    const [id, session] = this.sessions.entries().next().value ?? [];
    if (id === undefined || !session) return;
    this.sessions.delete(id);
    this.log(`steward-bridge: closing idle HTTP session ${id.slice(0, 8)}… (too many open)`);
    await session.server.close();
  }

  async close(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(sessions.map(({ server }) => server.close()));
  }
}

export interface HttpServerOptions extends HttpGuardOptions {
  factory: StewardServerFactory;
  log: (line: string) => void;
}

/** Streamable HTTP on 127.0.0.1: 2026-07-28 requests statelessly per request, 2025-era clients in sessions. */
export async function startHttpServer(options: HttpServerOptions): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const onerror = (error: Error) => options.log(`steward-bridge: HTTP: ${error.message}`);
  // A 2026-era request stands alone (no session in that protocol): its actions are audited under the client only.
  const modern = createMcpHandler((ctx: McpRequestContext) => options.factory(ctx, undefined), { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES, onerror });
  const legacy = new LegacySessions(options.factory, options.log);
  const handler = toNodeHandler(
    {
      fetch: async (request) => {
        // The guard let only known bearers through; which one decides whose pairing this is.
        const bearer = await options.bearers.identify(request.headers.get('authorization'));
        if (bearer === undefined) return Response.json({ error: { code: 'UNAUTHORIZED', message: 'Missing or wrong bearer token.' } }, { status: 401 });
        return (await isLegacyRequest(request, undefined, { maxRequestBodySize: MAX_BODY_BYTES })) ? legacy.handle(request, bearer) : modern.fetch(request, { authInfo: authOf(bearer) });
      },
    },
    { maxRequestBodySize: MAX_BODY_BYTES, onerror },
  );
  // The SDK's own loopback Host guard, behind ours (ours also pins the port).
  const sdkHostGuard = localhostHostValidation();
  let port = options.port;
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    if (!(await guard(req, res, { ...options, port })) || !sdkHostGuard(req, res)) return;
    // A known client's server-sent event stream may be quiet for long between messages.
    if (req.method === 'GET') req.socket.setTimeout(0);
    await handler(req, res);
  };
  const server = createServer(
    {
      headersTimeout: HTTP_LIMITS.HEADERS_TIMEOUT_MS,
      requestTimeout: HTTP_LIMITS.REQUEST_TIMEOUT_MS,
      keepAliveTimeout: HTTP_LIMITS.KEEP_ALIVE_MS,
      connectionsCheckingInterval: HTTP_LIMITS.CHECK_INTERVAL_MS,
    },
    (req, res) => {
      serve(req, res).catch((error: unknown) => {
        onerror(error instanceof Error ? error : new Error(String(error)));
        if (!res.headersSent) refuse(res, 500, 'INTERNAL', 'The bridge failed to answer.');
        else res.end();
      });
    },
  );
  // A socket silent both ways this long is destroyed (no timeout listener: Node closes it).
  server.timeout = HTTP_LIMITS.IDLE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    async close() {
      await Promise.allSettled([modern.close(), legacy.close()]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
