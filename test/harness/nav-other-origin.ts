import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * "Another origin" for navigation tests: a local server that is none of the allowed sites and
 * logs every request it receives (method, path with query, whether a body came). Tests assert on
 * this log — what the other origin's server really received — never on Steward's report alone.
 */
export interface OtherOrigin {
  url: string;
  received: Array<{ method: string; path: string; body: string }>;
  stop(): Promise<void>;
}

export async function startOtherOrigin(): Promise<OtherOrigin> {
  const received: OtherOrigin['received'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Other origin</title><h1>You reached the other origin</h1>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
