import { createServer, type Server, type Socket } from 'node:net';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createTlsServer } from 'node:tls';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_GENESIS_HASH } from '../../../src/protocol/audit.ts';
import type { ExportRecord } from '../../../src/protocol/audit-export.ts';
import { parseSyslogLine } from '../../../bridge/src/audit/syslog-line.ts';
import { runCli, startHost, tempDir } from './cli-process.ts';

const CHAIN = 'b-00112233445566ff';
const h = (n: number) => n.toString(16).padStart(64, '0');
const records = (n: number): ExportRecord[] =>
  Array.from({ length: n }, (_, seq) => ({
    seq,
    at: '2026-12-06T15:40:00.000Z',
    kind: 'token',
    agent_id: 'agent:mcp-x',
    outcome: 'minted',
    prev_hash: seq ? h(seq) : AUDIT_GENESIS_HASH,
    hash: h(seq + 1),
  }));

/** A collector that reads RFC 6587 octet-counted frames (and nothing else) into messages. */
function collector(): Promise<{ server: Server; port: number; messages: string[]; sockets: Socket[] }> {
  const messages: string[] = [];
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const space = buffer.indexOf(0x20);
        if (space < 0) return;
        const length = Number(buffer.subarray(0, space).toString('ascii'));
        if (!Number.isInteger(length)) {
          // Not a frame (a TLS hello, say): counted as garbage, never as a message.
          messages.push(`garbage: ${buffer.length} bytes`);
          buffer = Buffer.alloc(0);
          return;
        }
        if (buffer.length < space + 1 + length) return;
        messages.push(buffer.subarray(space + 1, space + 1 + length).toString('utf8'));
        buffer = buffer.subarray(space + 1 + length);
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port, messages, sockets })));
}

let home: ReturnType<typeof tempDir>;
const cleanups: Array<() => void> = [];
beforeEach(() => {
  home = tempDir();
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  home.remove();
});

describe('steward-bridge host: the audit export', { timeout: 60_000 }, () => {
  it('sends a batch as octet-counted RFC 5424 frames in seq order and acknowledges through its last seq once written', async () => {
    const c = await collector();
    cleanups.push(() => c.server.close());
    const { extension, run } = await startHost(home.path);
    cleanups.push(() => run.child.kill('SIGKILL'));
    await extension.next('hello');
    const batch = records(3);
    extension.send({ kind: 'audit-export', batch: 'b1', chain: CHAIN, target: { host: '127.0.0.1', port: c.port, tls: false }, records: batch });
    const result = (await extension.next('the result')) as { ok: boolean; through_seq: number; bytes: number };
    expect(result).toMatchObject({ kind: 'audit-export-result', batch: 'b1', ok: true, through_seq: 2 });
    expect(c.messages).toHaveLength(3);
    expect(result.bytes).toBe(c.messages.reduce((n, m) => n + Buffer.byteLength(m) + String(Buffer.byteLength(m)).length + 1, 0));
    expect(c.messages.map((m) => parseSyslogLine(m))).toEqual(batch.map((record) => ({ kind: 'entry', chain: CHAIN, record, digest: expect.any(String) })));

    // The collector goes away: the next batch is refused with the reason, not acknowledged.
    for (const s of c.sockets) s.destroy();
    await new Promise<void>((resolve) => c.server.close(() => resolve()));
    extension.send({ kind: 'audit-export', batch: 'b2', chain: CHAIN, target: { host: '127.0.0.1', port: c.port, tls: false }, records: records(1) });
    // With the same reason as a phrase, for Settings to say in the person's language.
    expect(await extension.next('the refusal')).toEqual({
      kind: 'audit-export-result',
      batch: 'b2',
      ok: false,
      problem: expect.stringMatching(/refused the connection/),
      problem_said: { code: 'collector_refused', params: { where: `tcp://127.0.0.1:${c.port}` } },
    });
  });

  it('reports a collector that does not speak TLS when the target asks for it', async () => {
    const c = await collector();
    cleanups.push(() => c.server.close());
    // It answers the TLS hello with plain text and closes, as a plain syslog port would.
    c.server.on('connection', (socket: Socket) => socket.end('not tls\n'));
    const { extension, run } = await startHost(home.path);
    cleanups.push(() => run.child.kill('SIGKILL'));
    await extension.next('hello');
    extension.send({ kind: 'audit-export', batch: 't1', chain: CHAIN, target: { host: '127.0.0.1', port: c.port, tls: true }, records: records(1) });
    expect(await extension.next('the refusal')).toEqual({
      kind: 'audit-export-result',
      batch: 't1',
      ok: false,
      problem: expect.stringMatching(/TLS with the collector at tls:\/\/127\.0\.0\.1:\d+ failed/),
      problem_said: { code: 'collector_tls_failed', params: { where: `tls://127.0.0.1:${c.port}`, error: expect.any(String) } },
    });
    expect(c.messages.filter((m) => !m.startsWith('garbage'))).toEqual([]);
  });
});

describe('steward-bridge host: the audit export over TLS (RFC 5425)', { timeout: 60_000 }, () => {
  it('checks the collector’s certificate against the target’s CA and name, then sends the same frames inside TLS', async () => {
    // A private CA's certificate for collector.test (openssl, as an organisation's PKI would issue it).
    const key = join(home.path, 'key.pem');
    const cert = join(home.path, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=collector.test',
        '-addext',
        'subjectAltName=DNS:collector.test',
      ],
      { stdio: 'pipe' },
    );
    const pem = readFileSync(cert, 'utf8');
    const received: string[] = [];
    const server = createTlsServer({ key: readFileSync(key), cert: pem }, (socket) => socket.on('data', (d: Buffer) => received.push(d.toString('utf8'))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    cleanups.push(() => server.close());
    const port = (server.address() as { port: number }).port;
    const { extension, run } = await startHost(home.path);
    cleanups.push(() => run.child.kill('SIGKILL'));
    await extension.next('hello');

    // Without the CA the certificate is refused, and nothing is sent.
    extension.send({ kind: 'audit-export', batch: 's1', chain: CHAIN, target: { host: '127.0.0.1', port, tls: true, server_name: 'collector.test' }, records: records(1) });
    expect(await extension.next('the refusal')).toMatchObject({ batch: 's1', ok: false, problem: expect.stringMatching(/TLS with the collector .* failed: .*(self.signed|certificate)/i) });

    extension.send({ kind: 'audit-export', batch: 's2', chain: CHAIN, target: { host: '127.0.0.1', port, tls: true, server_name: 'collector.test', ca: pem }, records: records(2) });
    expect(await extension.next('the result')).toMatchObject({ batch: 's2', ok: true, through_seq: 1 });
    const text = received.join('');
    expect(text).toMatch(/^\d+ <110>1 /);
    expect(text).toContain('seq="1"');
  });
});

describe('steward-bridge audit verify (the CLI)', { timeout: 60_000 }, () => {
  it('exits 0 naming each chain, and 1 naming the first break', async () => {
    const { formatSyslog } = await import('../../../bridge/src/audit/syslog-line.ts');
    const file = join(home.path, 'steward.log');
    const text = records(4).map((r) => formatSyslog(CHAIN, r, 'laptop'));
    writeFileSync(file, `${text.join('\n')}\n`);
    const good = await runCli(['audit', 'verify', file]);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain(`${CHAIN}: seq 0–3, 4 entries, unbroken`);
    writeFileSync(file, `${[text[0], text[1], text[3]].join('\n')}\n`);
    const broken = await runCli(['audit', 'verify', file]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`audit chain broken: ${file}:3: ${CHAIN} seq 2: gap: seq 2 is missing`);
    expect((await runCli(['audit', 'verify'])).code).toBe(2);
  });
});
