import { serveStdio as sdkServeStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Transport } from '@modelcontextprotocol/server';
import type { StewardLink } from '../link/steward-link.ts';
import { fileCredentialStore } from './credentials.ts';
import { ensurePrivateDir } from './files.ts';
import { startHttpServer } from './http.ts';
import { readOrCreateHttpToken } from './http-token.ts';
import { Pairing } from './pairing.ts';
import { stewardServerFactory } from './server.ts';

export { readOrCreateHttpToken } from './http-token.ts';

/** What the MCP server needs: the link to Steward, the bridge's home dir (credentials, HTTP token), and a logger (stderr only). */
export interface ServeOptions {
  link: StewardLink;
  home: string;
  log: (line: string) => void;
}

export interface HttpServeOptions extends ServeOptions {
  port: number;
  /** Browser origins allowed to call (none by default: MCP clients are not web pages). */
  allowedOrigins?: string[];
}

/**
 * Serves one MCP connection over `transport` (the process's stdio by default) until it closes;
 * the SDK picks the era from the client's opening (2026-07-28 discover, or a 2025 initialize).
 */
export async function serveConnection(options: ServeOptions, transport: Transport = new StdioServerTransport()): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  await ensurePrivateDir(options.home);
  const pairing = new Pairing(options.link, fileCredentialStore(options.home, options.log), options.log);
  const factory = stewardServerFactory({ link: options.link, pairing, transport: 'stdio', log: options.log });
  const watched = watchClose(transport);
  const handle = sdkServeStdio(factory, { transport: watched.transport, onerror: (error) => options.log(`steward-bridge: stdio: ${error.message}`) });
  return { closed: watched.closed, close: () => handle.close() };
}

/** The same transport, with a promise that settles when it closes (the SDK owns `onclose`, so ours is chained behind its handler). */
function watchClose(inner: Transport): { transport: Transport; closed: Promise<void> } {
  let settle: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (settle = resolve));
  const transport = new Proxy(inner, {
    set(target, property, value: unknown) {
      if (property !== 'onclose') return Reflect.set(target, property, value);
      target.onclose = () => {
        if (typeof value === 'function') (value as () => void)();
        settle();
      };
      return true;
    },
  });
  return { transport, closed };
}

/** The MCP server on stdin/stdout, until stdin closes; then the link closes too, leaving nothing running. */
export async function serveStdio(options: ServeOptions): Promise<void> {
  const connection = await serveConnection(options);
  await connection.closed;
  options.log('steward-bridge: stdin closed; stopping');
  await connection.close().catch(() => undefined);
  await options.link.close();
}

/** The MCP server as Streamable HTTP on 127.0.0.1:<port>/mcp. */
export async function serveHttp(options: HttpServeOptions): Promise<{ url: string; close(): Promise<void> }> {
  await ensurePrivateDir(options.home);
  const token = await readOrCreateHttpToken(options.home);
  const pairing = new Pairing(options.link, fileCredentialStore(options.home, options.log), options.log);
  const factory = stewardServerFactory({ link: options.link, pairing, transport: 'http', log: options.log });
  const server = await startHttpServer({ port: options.port, token, allowedOrigins: options.allowedOrigins ?? [], factory, log: options.log });
  options.log(`steward-bridge: MCP over HTTP at ${server.url}`);
  return { url: server.url, close: () => server.close() };
}
