import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FrameReader, encodeFrame } from '../../../bridge/src/host/framing.ts';
import { LineReader, encodeLine } from '../../../bridge/src/link/ndjson.ts';

/**
 * Real processes of the bridge CLI, and the two sides they talk to. The CLI is the bundle the npm
 * package ships (bridge/dist/cli.js, built by test/unit/global-setup.ts): what a person runs, and a
 * start without compiling the sources each time.
 */

export const ROOT = resolve(import.meta.dirname, '../../..');
export const CLI = join(ROOT, 'bridge/dist/cli.js');
export const STEWARD_ORIGIN = 'chrome-extension://iodcoaibgikagkbaifmcklmipgpmmcip/';

/** A short temp dir (socket paths are limited to 107 bytes). */
export function tempDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'sb-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface Run {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startCli(args: string[], env: Record<string, string> = {}, command: string[] = [process.execPath, CLI]): Run {
  const child = spawn(command[0]!, [...command.slice(1), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
  return { child, stderr: () => stderr, exited };
}

/** Runs the CLI to its end (with another Node or launcher when `command` is given). */
export async function runCli(args: string[], env: Record<string, string> = {}, command?: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = startCli(args, env, command);
  let stdout = '';
  run.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  run.child.stdin.end();
  const { code } = await run.exited;
  return { code, stdout, stderr: run.stderr() };
}

/** Polls until `check` holds (or throws after `ms`). */
export async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A stream of parsed messages, read one at a time. */
class Inbox {
  readonly messages: unknown[] = [];
  private cursor = 0;

  add(value: unknown): void {
    this.messages.push(value);
  }

  async next(what = 'a message', ms = 30_000): Promise<unknown> {
    await until(() => this.messages.length > this.cursor, what, ms);
    return this.messages[this.cursor++];
  }
}

/** Chrome's side of a running host: native frames on its stdin/stdout. */
export class FakeExtension extends Inbox {
  constructor(private readonly run: Run) {
    super();
    const reader = new FrameReader(64 * 1024 * 1024);
    run.child.stdout.on('data', (chunk: Buffer) => {
      for (const event of reader.push(chunk)) if (event.kind === 'message') this.add(event.value);
    });
  }

  send(value: unknown): void {
    this.run.child.stdin.write(encodeFrame(value, 64 * 1024 * 1024)!);
  }

  raw(bytes: Buffer): void {
    this.run.child.stdin.write(bytes);
  }
}

/** An MCP server process's side of the socket: NDJSON. */
export class SocketClient extends Inbox {
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    super();
    const reader = new LineReader(16 * 1024 * 1024);
    socket.on('data', (chunk: Buffer) => {
      for (const event of reader.push(chunk)) if (event.kind === 'message') this.add(event.value);
    });
    this.closed = new Promise((done) => socket.on('close', () => done()));
  }

  static connect(path: string): Promise<SocketClient> {
    return new Promise((done, fail) => {
      const socket = createConnection(path);
      socket.once('connect', () => done(new SocketClient(socket)));
      socket.once('error', fail);
    });
  }

  send(value: unknown): void {
    this.socket.write(encodeLine(value));
  }
}

/** Starts a host for Steward with `home`, and waits until it listens. */
export async function startHost(home: string, origin = STEWARD_ORIGIN): Promise<{ run: Run; extension: FakeExtension; socketPath: string }> {
  const run = startCli(['host', origin], { STEWARD_BRIDGE_HOME: home, STEWARD_EXTENSION_ID: '' });
  const extension = new FakeExtension(run);
  const socketPath = join(home, 'bridge.sock');
  await until(() => /listening on/.test(run.stderr()) || run.child.exitCode !== null, 'the host to listen');
  if (!existsSync(socketPath)) throw new Error(`the host did not listen: ${run.stderr()}`);
  return { run, extension, socketPath };
}
