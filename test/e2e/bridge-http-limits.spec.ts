import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { expect } from '../harness/expect.ts';
import { startHttpBridge, type HttpBridge } from '../harness/bridge-harness.ts';
import { INITIALIZE, rawHttp } from '../harness/bridge-hostile-world.ts';

/**
 * The bridge's HTTP port against a hostile local process, on the real `steward-bridge serve --http`
 * process (no browser needed: the refusals happen before anything reaches Steward). A client that
 * trickles its headers or body, or opens a connection and says nothing, is cut off by the bridge
 * while it is still trickling; a body over 1 MB gets 413 with a JSON error, declared or chunked.
 * Afterwards the bridge still answers a well-behaved client.
 */

/** What the server wrote back on a raw socket, and whether it closed the connection while the client still had more to send. */
interface Trickle {
  reply: string;
  closedByServer: boolean;
  bytesSent: number;
}

/**
 * Writes `head`, then one more `piece` every `everyMs` for up to `forMs` (a slow-loris client).
 * Resolves when the server closes the connection, or when the client gives up (closedByServer false).
 */
function trickle(port: number, head: string, piece: (i: number) => string, everyMs: number, forMs: number): Promise<Trickle> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let reply = '';
    let bytesSent = 0;
    let timer: NodeJS.Timeout | undefined;
    const send = (s: string) => {
      if (socket.destroyed || socket.writableEnded) return;
      bytesSent += Buffer.byteLength(s);
      socket.write(s);
    };
    const done = (closedByServer: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ reply, closedByServer, bytesSent });
    };
    const giveUp = setTimeout(() => done(false), forMs);
    socket.on('connect', () => {
      if (head) send(head);
      let i = 0;
      timer = setInterval(() => send(piece(i++)), everyMs);
    });
    socket.on('data', (d: Buffer) => (reply += d.toString('utf8')));
    socket.on('end', () => done(true));
    socket.on('close', () => done(true));
    socket.on('error', () => done(true));
  });
}

test.describe.serial("the bridge's HTTP server holds against slow and oversized requests", () => {
  let home: string;
  let http: HttpBridge;

  test.beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'sb-limits-'));
    http = await startHttpBridge({ home, env: { STEWARD_BRIDGE_HOME: home } });
  });
  test.afterAll(async () => {
    await http?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  test('headers trickled one line at a time (slow-loris): the bridge answers 408 and closes while the client is still sending', async () => {
    test.setTimeout(60_000);
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\n`;
    const r = await trickle(http.port, head, (i) => `X-Slow-${i}: a\r\n`, 500, 40_000);
    expect(r.closedByServer, 'the bridge kept the trickling connection open for 40 s').toBe(true);
    expect(r.reply).toMatch(/^HTTP\/1\.1 408/);
  });

  test('a body trickled one byte at a time after valid headers: the bridge gives up on the request and closes the connection', async () => {
    test.setTimeout(60_000);
    const head = [
      'POST /mcp HTTP/1.1',
      `Host: 127.0.0.1:${http.port}`,
      `Authorization: Bearer ${http.token}`,
      'Content-Type: application/json',
      'Accept: application/json, text/event-stream',
      'Content-Length: 100000',
      '',
      '',
    ].join('\r\n');
    const r = await trickle(http.port, head, () => ' ', 500, 45_000);
    expect(r.closedByServer, 'the bridge waited 45 s for a body that never finished').toBe(true);
    expect(r.bytesSent).toBeLessThan(head.length + 100_000);
  });

  test('a connection that sends nothing is closed by the bridge', async () => {
    test.setTimeout(60_000);
    const r = await trickle(http.port, '', () => '', 60_000, 40_000);
    expect(r.closedByServer, 'a silent connection stayed open for 40 s').toBe(true);
  });

  test('a body over 1 MB is refused with 413 and a JSON error, whether its length is declared or it comes chunked', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${http.token}` };
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2 * 1024 * 1024) } });

    const declared = await rawHttp(http.port, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(big)) }, body: big });
    expect(declared.status).toBe(413);
    expect(declared.headers['content-type']).toContain('application/json');
    expect(JSON.parse(declared.body)).toMatchObject({ error: { message: expect.any(String) } });

    // No Content-Length: node:http sends the body chunked, so only counting what arrives can stop it.
    const chunked = await rawHttp(http.port, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' }, body: big });
    expect(chunked.status).toBe(413);
    expect(chunked.headers['content-type']).toContain('application/json');
    expect(JSON.parse(chunked.body)).toMatchObject({ error: { message: expect.any(String) } });
  });

  test('after all that, a well-behaved client is still answered', async () => {
    const reply = await rawHttp(http.port, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${http.token}` },
      body: INITIALIZE,
    });
    expect(reply.status).toBe(200);
  });
});
