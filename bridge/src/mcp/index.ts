import type { StewardLink } from '../link/steward-link.ts';

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

/** The MCP server on stdin/stdout, until stdin closes. */
export async function serveStdio(_options: ServeOptions): Promise<void> {
  throw new Error('not built yet');
}

/** The MCP server as Streamable HTTP on 127.0.0.1:<port>/mcp. */
export async function serveHttp(_options: HttpServeOptions): Promise<{ url: string; close(): Promise<void> }> {
  throw new Error('not built yet');
}

/** The HTTP transport's bearer (`<home>/http-token`, 0600), created on first use. */
export async function readOrCreateHttpToken(_home: string): Promise<string> {
  throw new Error('not built yet');
}
