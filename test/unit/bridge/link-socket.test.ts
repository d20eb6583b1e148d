import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectLink } from '../../../bridge/src/link/socket-link.ts';
import type { StewardLink } from '../../../bridge/src/link/steward-link.ts';
import { encodeLine, LineReader } from '../../../bridge/src/link/ndjson.ts';
import { tempDir, until } from './cli-process.ts';

const auth = { agent_id: 'agent:mcp-test-0a1b', token: 'secret' };

/** The host's side of the socket, scripted: `answer` decides what each request gets (nothing, to hold it). */
class FakeHost {
  readonly requests: Array<{ id: string; message: { type: string } }> = [];
  readonly sockets = new Set<Socket>();
  private server: Server | null = null;

  constructor(
    readonly path: string,
    private readonly answer: (request: { id: string; message: { type: string } }, socket: Socket) => void,
  ) {}

  start(): Promise<void> {
    this.server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      const reader = new LineReader(1024 * 1024);
      socket.on('data', (chunk: Buffer) => {
        for (const event of reader.push(chunk)) {
          if (event.kind !== 'message') continue;
          const request = event.value as { id: string; message: { type: string } };
          this.requests.push(request);
          this.answer(request, socket);
        }
      });
    });
    return new Promise((done) => this.server!.listen(this.path, done));
  }

  stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

const tabsReply = (id: string) => encodeLine({ id, reply: { ok: true, data: { tabs: [] } } });

let dir: ReturnType<typeof tempDir>;
let path: string;
const open: Array<StewardLink | FakeHost> = [];
beforeEach(() => {
  dir = tempDir();
  path = join(dir.path, 'bridge.sock');
});
afterEach(async () => {
  for (const thing of open.splice(0)) await (thing instanceof FakeHost ? thing.stop() : thing.close());
  dir.remove();
});

function link(options: { waitMs?: number; callTimeoutMs?: number } = {}) {
  const logs: string[] = [];
  const made = connectLink({ socketPath: path, log: (line) => logs.push(line), ...options });
  open.push(made);
  return { link: made, logs };
}

async function host(answer: ConstructorParameters<typeof FakeHost>[1] = (r, s) => s.write(tabsReply(r.id))) {
  const made = new FakeHost(path, answer);
  await made.start();
  open.push(made);
  return made;
}

describe('the socket link to Steward', { timeout: 30_000 }, () => {
  it('sends `{id, message}` and parses the answer with the request type’s reply schema', async () => {
    const fake = await host((request, socket) => {
      if (request.message.type === 'bridge/tabs') socket.write(tabsReply(request.id));
      else socket.write(encodeLine({ id: request.id, reply: { ok: true, data: { unexpected: 'shape' } } }));
    });
    const { link: l } = link();
    expect(await l.call('bridge/tabs', { auth })).toEqual({ ok: true, data: { tabs: [] } });
    expect(fake.requests[0]).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9_-]+$/), message: { type: 'bridge/tabs', auth } });
    expect(l.connected()).toBe(true);
    expect(await l.call('bridge/memory', { auth })).toMatchObject({ ok: false, error: { code: 'INVALID_REPLY' } });
  });

  it('answers STEWARD_UNAVAILABLE (retryable, saying what to do) after waiting when Steward is not there', async () => {
    const { link: l } = link({ waitMs: 400 });
    const started = Date.now();
    const reply = await l.call('bridge/tabs', { auth });
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    expect(reply).toEqual({ ok: false, error: { code: 'STEWARD_UNAVAILABLE', message: expect.stringMatching(/open the browser with Steward.*steward-bridge install/), retryable: true } });
    expect(l.connected()).toBe(false);
  });

  it('takes STEWARD_BRIDGE_LINK_WAIT_MS as the default wait', async () => {
    process.env.STEWARD_BRIDGE_LINK_WAIT_MS = '150';
    try {
      const { link: l } = link();
      const started = Date.now();
      await l.call('bridge/tabs', { auth });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      delete process.env.STEWARD_BRIDGE_LINK_WAIT_MS;
    }
  });

  it('a call made while Steward is away goes through when it comes back within the wait', async () => {
    const { link: l } = link({ waitMs: 10_000 });
    const pending = l.call('bridge/tabs', { auth });
    await new Promise((r) => setTimeout(r, 700));
    await host();
    expect(await pending).toEqual({ ok: true, data: { tabs: [] } });
  });

  it('reconnects after the host goes away and comes back (the browser restarted)', async () => {
    const first = await host();
    const { link: l, logs } = link({ waitMs: 10_000 });
    expect((await l.call('bridge/tabs', { auth })).ok).toBe(true);
    await first.stop();
    await until(() => !l.connected(), 'the link to notice');
    await host();
    await until(() => l.connected(), 'the link to reconnect', 10_000);
    expect((await l.call('bridge/tabs', { auth })).ok).toBe(true);
    expect(logs.some((line) => /lost the link/.test(line))).toBe(true);
  });

  it('a call in flight when the socket drops answers STEWARD_UNAVAILABLE, saying to call again with the same idempotency_key', async () => {
    await host((_request, socket) => socket.destroy());
    const { link: l } = link();
    const reply = await l.call('bridge/execute', { auth, request: { idempotency_key: 'k1' } });
    expect(reply).toEqual({ ok: false, error: { code: 'STEWARD_UNAVAILABLE', message: expect.stringMatching(/may have run.*same idempotency_key/), retryable: true } });
  });

  it('refuses a request too large for one message to Steward without sending it', async () => {
    const fake = await host();
    const { link: l } = link();
    const reply = await l.call('bridge/execute', { auth, request: { text: 'z'.repeat(1024 * 1024) } });
    expect(reply).toMatchObject({ ok: false, error: { code: 'REQUEST_TOO_LARGE', retryable: false } });
    expect(fake.requests).toHaveLength(0);
  });

  it('a call Steward never answers ends with TIMEOUT', async () => {
    await host(() => {});
    const { link: l } = link({ callTimeoutMs: 300 });
    expect(await l.call('bridge/tabs', { auth })).toMatchObject({ ok: false, error: { code: 'TIMEOUT', retryable: true } });
  });

  it('ignores responses that do not fit or that no call waits for', async () => {
    await host((request, socket) => {
      socket.write('garbage\n');
      socket.write(encodeLine({ id: 'nobody', reply: { ok: true, data: {} } }));
      socket.write(encodeLine({ id: request.id, reply: 'no' }));
      socket.write(tabsReply(request.id));
    });
    const { link: l, logs } = link();
    expect(await l.call('bridge/tabs', { auth })).toEqual({ ok: true, data: { tabs: [] } });
    expect(logs.filter((line) => /dropped/.test(line))).toHaveLength(3);
  });

  it('close() ends waiting calls and stops reconnecting', async () => {
    const { link: l } = link({ waitMs: 10_000 });
    const waiting = l.call('bridge/tabs', { auth });
    await l.close();
    expect(await waiting).toMatchObject({ ok: false, error: { code: 'STEWARD_UNAVAILABLE' } });
    const fake = await host();
    await new Promise((r) => setTimeout(r, 600));
    expect(fake.sockets.size).toBe(0);
  });
});
