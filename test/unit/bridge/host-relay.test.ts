import { existsSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectLink } from '../../../bridge/src/link/socket-link.ts';
import { SocketClient, startCli, startHost, STEWARD_ORIGIN, tempDir, until } from './cli-process.ts';

const auth = { agent_id: 'agent:mcp-test-0a1b', token: 'secret' };
const tabs = (id: string) => ({ id, message: { type: 'bridge/tabs', auth } });
const mode = (path: string) => statSync(path).mode & 0o777;

let home: ReturnType<typeof tempDir>;
const cleanups: Array<() => void> = [];
beforeEach(() => {
  home = tempDir();
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  home.remove();
});

async function host() {
  const started = await startHost(home.path);
  cleanups.push(() => started.run.child.kill('SIGKILL'));
  return started;
}

describe('the native-messaging host (a real process, Chrome played over its stdin/stdout)', { timeout: 60_000 }, () => {
  it('greets Steward, listens on a 0600 socket in a 0700 home, and routes each reply to the connection and request it answers', async () => {
    const { extension, socketPath, run } = await host();
    expect(await extension.next('hello')).toEqual({ kind: 'hello', host_version: '0.1.0', protocol: 1 });
    expect(mode(home.path)).toBe(0o700);
    expect(statSync(socketPath).isSocket()).toBe(true);
    expect(mode(socketPath)).toBe(0o600);

    const first = await SocketClient.connect(socketPath);
    const second = await SocketClient.connect(socketPath);
    first.send(tabs('r1'));
    const callA = (await extension.next('call from the first client')) as { kind: string; id: string; conn: string; message: unknown };
    second.send(tabs('r1'));
    const callB = (await extension.next('call from the second client')) as { kind: string; id: string; conn: string };
    expect(callA).toEqual({ kind: 'call', id: 'r1', conn: expect.stringMatching(/^conn-/), message: { type: 'bridge/tabs', auth } });
    expect(callB.id).toBe('r1');
    expect(callB.conn).not.toBe(callA.conn);

    // Answered in the other order, each goes to its own client.
    extension.send({ kind: 'reply', id: 'r1', conn: callB.conn, reply: { ok: true, data: { tabs: [], who: 'second' } } });
    extension.send({ kind: 'reply', id: 'r1', conn: callA.conn, reply: { ok: true, data: { tabs: [], who: 'first' } } });
    expect(await second.next()).toEqual({ id: 'r1', reply: { ok: true, data: { tabs: [], who: 'second' } } });
    expect(await first.next()).toEqual({ id: 'r1', reply: { ok: true, data: { tabs: [], who: 'first' } } });

    // A reply nobody waits for is dropped with a log line; the clients get nothing.
    extension.send({ kind: 'reply', id: 'r1', conn: callA.conn, reply: { ok: true, data: {} } });
    await until(() => /dropped Steward's reply/.test(run.stderr()), 'the drop to be logged');

    first.socket.end();
    expect(await extension.next('conn-closed')).toEqual({ kind: 'conn-closed', conn: callA.conn });
    expect(first.messages).toHaveLength(1);
    second.socket.end();
  });

  it('drops what does not fit the protocol, both ways, and keeps working', async () => {
    const { extension, socketPath, run } = await host();
    await extension.next('hello');
    const client = await SocketClient.connect(socketPath);

    client.send({ id: 'bad', message: 'not an object' });
    expect(await client.next('a refusal')).toEqual({ id: 'bad', reply: { ok: false, error: { code: 'INVALID_MESSAGE', message: expect.any(String), retryable: false } } });
    client.socket.write('this is not json\n');
    client.send({ id: 'x'.repeat(100), message: { type: 'bridge/tabs' } });

    extension.send({ kind: 'reply', id: 'r1', conn: 'conn-x', reply: { maybe: true } });
    extension.send({ kind: 'surprise' });
    const garbage = Buffer.from('{{{{');
    const header = Buffer.alloc(4);
    header.writeUInt32LE(garbage.length);
    extension.raw(Buffer.concat([header, garbage]));
    // Over the cap the host accepts from Chrome (8 MB): skipped, not buffered.
    const hugeHeader = Buffer.alloc(4);
    hugeHeader.writeUInt32LE(9 * 1024 * 1024);
    extension.raw(Buffer.concat([hugeHeader, Buffer.alloc(9 * 1024 * 1024, 0x20)]));

    client.send(tabs('after'));
    const call = (await extension.next('the call after the garbage')) as { id: string; conn: string };
    expect(call.id).toBe('after');
    extension.send({ kind: 'reply', id: 'after', conn: call.conn, reply: { ok: false, error: { code: 'TOKEN_INVALID', message: 'revoked', retryable: false } } });
    expect(await client.next()).toEqual({ id: 'after', reply: { ok: false, error: { code: 'TOKEN_INVALID', message: 'revoked', retryable: false } } });

    const log = run.stderr();
    expect(log).toMatch(/not JSON/);
    expect(log).toMatch(/over the 8388608-byte cap/);
    expect(log.match(/does not fit/g)?.length).toBeGreaterThanOrEqual(4);
    expect(run.child.stdout.readableLength).toBe(0);
  });

  it('refuses a request too large for one message to Steward, and still relays the next', async () => {
    const { extension, socketPath } = await host();
    await extension.next('hello');
    const client = await SocketClient.connect(socketPath);
    client.send({ id: 'big', message: { type: 'bridge/execute', auth, request: { text: 'z'.repeat(1024 * 1024) } } });
    expect(await client.next('the refusal')).toEqual({ id: 'big', reply: { ok: false, error: { code: 'REQUEST_TOO_LARGE', message: expect.any(String), retryable: false } } });
    client.send(tabs('small'));
    expect(((await extension.next('the small call')) as { id: string }).id).toBe('small');
    expect(extension.messages.some((m) => (m as { id?: string }).id === 'big')).toBe(false);
  });

  it('exits when Steward disconnects (stdin ends): the socket is closed and unlinked, its clients dropped', async () => {
    const { run, extension, socketPath } = await host();
    await extension.next('hello');
    const client = await SocketClient.connect(socketPath);
    run.child.stdin.end();
    expect(await run.exited).toEqual({ code: 0, signal: null });
    await client.closed;
    expect(existsSync(socketPath)).toBe(false);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('exits on %s and unlinks the socket', async (signal) => {
    const { run, extension, socketPath } = await host();
    await extension.next('hello');
    run.child.kill(signal);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(socketPath)).toBe(false);
  });

  it('refuses to run for any origin but Steward, before it listens', async () => {
    for (const origin of ['chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/', 'https://evil.example/', STEWARD_ORIGIN.slice(0, -1)]) {
      const run = startCli(['host', origin], { STEWARD_BRIDGE_HOME: home.path, STEWARD_EXTENSION_ID: '' });
      run.child.stdin.end();
      expect((await run.exited).code).toBe(1);
      expect(run.stderr()).toMatch(/refusing to run: started for .*only Steward \(chrome-extension:\/\/iodcoaibgikagkbaifmcklmipgpmmcip\/\)/);
      expect(run.child.stdout.readableLength).toBe(0);
      expect(existsSync(`${home.path}/bridge.sock`)).toBe(false);
    }
  });

  it('accepts the extension id baked in by install (STEWARD_EXTENSION_ID)', async () => {
    const id = 'abcdefghijklmnopabcdefghijklmnop';
    const run = startCli(['host', `chrome-extension://${id}/`], { STEWARD_BRIDGE_HOME: home.path, STEWARD_EXTENSION_ID: id });
    await until(() => /listening on/.test(run.stderr()), 'the host to listen');
    run.child.stdin.end();
    expect((await run.exited).code).toBe(0);
  });

  it('leaves a live host alone (the second one exits with a clear message), and replaces a stale socket', async () => {
    const first = await host();
    const second = startCli(['host', STEWARD_ORIGIN], { STEWARD_BRIDGE_HOME: home.path, STEWARD_EXTENSION_ID: '' });
    expect((await second.exited).code).toBe(1);
    expect(second.stderr()).toMatch(/another Steward host is already listening on .*bridge\.sock/);
    expect(existsSync(first.socketPath)).toBe(true);

    // Killed outright, the first leaves its socket file behind; the next host replaces it.
    first.run.child.kill('SIGKILL');
    await first.run.exited;
    expect(existsSync(first.socketPath)).toBe(true);
    const next = await host();
    expect(await next.extension.next('hello')).toMatchObject({ kind: 'hello' });
    const client = await SocketClient.connect(next.socketPath);
    client.send(tabs('r'));
    expect(await next.extension.next('a call')).toMatchObject({ kind: 'call', id: 'r' });
  });

  it('carries a StewardLink call end to end, and the link drops in-flight calls as retryable when the host goes', async () => {
    const { run, extension, socketPath } = await host();
    await extension.next('hello');
    const link = connectLink({ socketPath, log: () => {}, waitMs: 5000 });
    cleanups.push(() => void link.close());
    const answer = link.call('bridge/tabs', { auth });
    const call = (await extension.next('the link call')) as { id: string; conn: string; message: unknown };
    expect(call.message).toEqual({ type: 'bridge/tabs', auth });
    const tab = { tab_id: 7, url: 'http://localhost:4001/', title: 'Clinic', origin: 'http://localhost:4001', active: true };
    extension.send({ kind: 'reply', id: call.id, conn: call.conn, reply: { ok: true, data: { tabs: [tab] } } });
    expect(await answer).toEqual({ ok: true, data: { tabs: [tab] } });

    const inFlight = link.call('bridge/memory', { auth });
    await extension.next('the second call');
    run.child.stdin.end();
    const dropped = await inFlight;
    expect(dropped).toMatchObject({ ok: false, error: { code: 'STEWARD_UNAVAILABLE', retryable: true } });
    expect(!dropped.ok && dropped.error.message).toMatch(/may have run.*same idempotency_key/);
  });

  it("passes Steward's events to every connected process, which a link hands to its listeners; an event that does not fit is dropped", async () => {
    const { extension, socketPath } = await host();
    await extension.next('hello');
    const other = await SocketClient.connect(socketPath);
    const link = connectLink({ socketPath, log: () => {}, waitMs: 5000 });
    cleanups.push(() => void link.close());
    const heard: unknown[] = [];
    link.onEvent((event) => heard.push(event));
    // The link is connected once a call of it reaches Steward.
    void link.call('bridge/tabs', { auth });
    await extension.next('the link call');
    extension.send({ kind: 'event', event: { type: 'page-tools-changed', tab_id: 'x' } });
    extension.send({ kind: 'event', event: { type: 'page-tools-changed', tab_id: 12 } });
    expect(await other.next()).toEqual({ event: { type: 'page-tools-changed', tab_id: 12 } });
    await until(() => heard.length > 0, 'the link heard the event');
    expect(heard).toEqual([{ type: 'page-tools-changed', tab_id: 12 }]);
  });
});
