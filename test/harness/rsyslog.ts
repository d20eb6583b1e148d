import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from './bridge-harness.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real rsyslog (Debian's `rsyslog` package; .ci/run installs it) receiving Steward's audit
 * export: `rsyslogd -n -f test/fixtures/rsyslog/steward.conf` with its own port on 127.0.0.1, its
 * own pid file and work directory, writing every message to one file. Nothing of the system's
 * syslog is touched (no /dev/log, no /etc/rsyslog.conf). Stopped and started again on the same
 * port and file, as a collector that goes down and comes back.
 */

const RSYSLOG_CONF = join(import.meta.dirname, '..', 'fixtures', 'rsyslog', 'steward.conf');
const RSYSLOGD = '/usr/sbin/rsyslogd';

export interface Rsyslog {
  port: number;
  /** The file rsyslog writes the messages to. */
  file: string;
  /** Its lines so far. */
  lines(): string[];
  start(): Promise<void>;
  stop(): Promise<void>;
  remove(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(test: () => Promise<boolean> | boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`rsyslog: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function rsyslog(): Promise<Rsyslog> {
  if (!existsSync(RSYSLOGD)) throw new Error(`${RSYSLOGD} is missing: apt-get install rsyslog (.ci/run does)`);
  const dir = mkdtempSync(join(tmpdir(), 'steward-rsyslog-'));
  const port = await freePort();
  const file = join(dir, 'steward-audit.log');
  let child: ChildProcess | undefined;
  let log = '';
  const env = { ...process.env, STEWARD_RSYSLOG_PORT: String(port), STEWARD_RSYSLOG_DIR: dir, STEWARD_RSYSLOG_OUT: file };
  const server: Rsyslog = {
    port,
    file,
    lines: () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []),
    async start() {
      const started = spawn(RSYSLOGD, ['-n', '-f', RSYSLOG_CONF, '-i', join(dir, 'rsyslogd.pid')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      started.stdout?.on('data', (d: Buffer) => (log += d.toString()));
      started.stderr?.on('data', (d: Buffer) => (log += d.toString()));
      child = started;
      await waitFor(async () => {
        if (started.exitCode !== null) throw new Error(`rsyslogd exited (${started.exitCode}): ${log}`);
        return accepts(port);
      }, `rsyslogd to listen on ${port}`);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    async remove() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
