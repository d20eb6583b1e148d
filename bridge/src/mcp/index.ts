import { serveStdio as sdkServeStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Transport } from '@modelcontextprotocol/server';
import type { StewardLink } from '../link/steward-link.ts';
import path from 'node:path';
import type { McpClientInfo } from '../../../src/protocol/bridge.ts';
import { fileSlot, httpCredentialFile, memorySlot, type ClientSlot } from './credentials.ts';
import { ensurePrivateDir } from './files.ts';
import { startHttpServer } from './http.ts';
import { HttpBearers } from './http-token.ts';
import { Pairing } from './pairing.ts';
import { pageToolSource, stewardServerFactory } from './server.ts';
import { PageToolWatch } from './page-tools.ts';
import { newMcpSession } from './session.ts';

export { readOrCreateHttpToken, readOrCreateClientHttpToken } from './http-token.ts';

/** What the MCP server needs: the link to Steward, the bridge's home dir (credentials, HTTP token), and a logger (stderr only). */
interface ServeOptions {
  link: StewardLink;
  home: string;
  log: (line: string) => void;
}

export interface StdioServeOptions extends ServeOptions {
  /**
   * The client's credential file, named on its launch line (`serve --credential FILE` or
   * STEWARD_BRIDGE_CREDENTIAL): the pairing is written there and read back on later runs. Without
   * one the pairing lasts as long as this process.
   */
  credential?: string | undefined;
  /** The organisation's key for this client (policy mcpClientKeys): `--client-key-file FILE` or STEWARD_CLIENT_KEY. */
  clientKey?: string | undefined;
}

/** A stdio process serves one client: its pairing is in the credential file its launch line names (or in memory), never found by the name the client gives. */
function stdioSlot(options: StdioServeOptions): ClientSlot {
  return options.credential ? fileSlot(path.resolve(options.credential), options.log, { keepsPending: true }) : memorySlot();
}

/**
 * An HTTP client's pairing is kept by its bearer (what it holds) and its name: a client with its own
 * bearer (`http-token --client`) cannot be taken over by another; clients sharing the default
 * bearer trust each other. Slots are kept for the server's life, so a pending request waits in memory.
 */
function httpSlots(home: string, log: (line: string) => void): (client: McpClientInfo, bearer: string | undefined) => ClientSlot {
  const slots = new Map<string, ClientSlot>();
  return (client, bearer) => {
    const identity = `http:${bearer ?? 'default'}:${client.name}`;
    let slot = slots.get(identity);
    if (!slot) slots.set(identity, (slot = fileSlot(httpCredentialFile(home, identity), log, { keepsPending: false })));
    return slot;
  };
}

export interface HttpServeOptions extends ServeOptions {
  port: number;
  /** Browser origins allowed to call (none by default: MCP clients are not web pages). */
  allowedOrigins?: string[];
}

/**
 * Serves one MCP connection over `transport` (the process's stdio by default) until it closes;
 * the SDK picks the era from the client's opening (2026-07-28 discover, or a 2025 initialize).
 * The connection is one session of the client, whichever era: its actions are audited under it.
 */
export async function serveConnection(options: StdioServeOptions, transport: Transport = new StdioServerTransport()): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  await ensurePrivateDir(options.home);
  const pairing = new Pairing(options.link, options.log, options.clientKey);
  const slot = stdioSlot(options);
  const pageTools = new PageToolWatch(options.link, options.log);
  // A client paired on an earlier run is offered its current tab's page tools from the start.
  const saved = await slot.read().catch(() => undefined);
  if (saved?.status === 'paired') pageTools.know(pageToolSource(undefined), { agent_id: saved.agent_id, token: saved.token });
  const factory = stewardServerFactory({ link: options.link, pairing, transport: 'stdio', slotFor: () => slot, pageTools, log: options.log });
  // Minted once: the SDK may ask the factory again on this connection (a discarded discover probe), still the same session.
  const session = newMcpSession();
  const watched = watchClose(transport);
  const handle = sdkServeStdio((ctx) => factory(ctx, session), { transport: watched.transport, onerror: (error) => options.log(`steward-bridge: stdio: ${error.message}`) });
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
export async function serveStdio(options: StdioServeOptions): Promise<void> {
  const connection = await serveConnection(options);
  await connection.closed;
  options.log('steward-bridge: stdin closed; stopping');
  await connection.close().catch(() => undefined);
  await options.link.close();
}

/** The MCP server as Streamable HTTP on 127.0.0.1:<port>/mcp. */
export async function serveHttp(options: HttpServeOptions): Promise<{ url: string; close(): Promise<void> }> {
  await ensurePrivateDir(options.home);
  const bearers = new HttpBearers(options.home);
  await bearers.load();
  const pairing = new Pairing(options.link, options.log);
  const pageTools = new PageToolWatch(options.link, options.log);
  const factory = stewardServerFactory({ link: options.link, pairing, transport: 'http', slotFor: httpSlots(options.home, options.log), pageTools, log: options.log });
  const server = await startHttpServer({ port: options.port, bearers, allowedOrigins: options.allowedOrigins ?? [], factory, log: options.log });
  options.log(`steward-bridge: MCP over HTTP at ${server.url}`);
  return { url: server.url, close: () => server.close() };
}
