import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { AuditExportBatch, AuditExportResult, AuditExportTarget } from '../../../src/protocol/audit-export.ts';
import { canonicalJson } from '../../../src/base/canonical-json.ts';
import { phrase, type Phrase } from '../../../src/protocol/phrase.ts';
import { formatSyslog, octetFrame } from './syslog-line.ts';

/**
 * The host's side of the audit export: one connection to the collector (TCP, or TLS per RFC 5425),
 * kept across batches and reopened when the target changes or the collector closes it. A batch is
 * acknowledged once its frames are flushed to the kernel and the connection is still up a moment
 * later: plain TCP syslog has no acknowledgement of its own, so this is as far as "the collector
 * took it" can be known (docs/ADMIN.md says what that means). Batches run one at a time, in order.
 */

export interface ForwarderOptions {
  hostname: string;
  log: (line: string) => void;
  connectTimeoutMs?: number;
  /** A collector that does not take a batch within this long is reported as slow (or full). */
  writeTimeoutMs?: number;
  /** How long the connection must stay up after a flush before the batch counts as taken. */
  settleMs?: number;
}

interface Open {
  key: string;
  socket: Socket;
  /** Why the connection ended, once it has. */
  ended?: string;
}

const describe = (target: AuditExportTarget) => `${target.tls ? 'tls' : 'tcp'}://${target.host}:${target.port}`;

/** A problem in an admin's words (what the host logs and the audit records), and as a phrase for Settings to say in the person's language. */
interface Problem {
  text: string;
  said: Phrase;
}

/** A socket error in an admin's words. */
function problemOf(target: AuditExportTarget, error: Error & { code?: string }, connecting = false): Problem {
  const where = describe(target);
  // A TLS target that drops the connection during the handshake does not speak TLS there (or refuses ours).
  if (connecting && target.tls && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
    return { text: `TLS with the collector at ${where} failed: ${error.message} (does it speak TLS on that port?).`, said: phrase('collector_tls_failed', { where, error: error.message }) };
  }
  switch (error.code) {
    case 'ECONNREFUSED':
      return { text: `The collector at ${where} refused the connection (is it listening on that port?).`, said: phrase('collector_refused', { where }) };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { text: `The collector's host name ${target.host} does not resolve.`, said: phrase('collector_host_unknown', { host: target.host }) };
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { text: `The collector at ${where} cannot be reached (${error.code}).`, said: phrase('collector_unreachable', { where, code: error.code }) };
    case 'ECONNRESET':
    case 'EPIPE':
      return { text: `The collector at ${where} closed the connection mid-write (${error.code}).`, said: phrase('collector_closed', { where, code: error.code }) };
    default:
      if (target.tls && /SSL|TLS|certificate|self.signed|wrong version|handshake/i.test(`${error.code ?? ''} ${error.message}`)) {
        return {
          text: `TLS with the collector at ${where} failed: ${error.message} (does it speak TLS on that port, with a certificate for ${target.server_name ?? target.host}?).`,
          said: phrase('collector_tls_failed', { where, error: error.message }),
        };
      }
      return { text: `The collector at ${where}: ${error.message}`.slice(0, 1000), said: phrase('collector_failed', { where, error: error.message }) };
  }
}

export class AuditForwarder {
  private open: Open | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ForwarderOptions) {}

  /** Sends the batch after every earlier one has settled. */
  send(batch: AuditExportBatch): Promise<AuditExportResult> {
    const next = this.queue.then(() => this.sendNow(batch));
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.open?.socket.destroy();
    this.open = undefined;
  }

  private async sendNow(batch: AuditExportBatch): Promise<AuditExportResult> {
    const fail = (problem: Problem): AuditExportResult => ({ kind: 'audit-export-result', batch: batch.batch, ok: false, problem: problem.text.slice(0, 1000), problem_said: problem.said });
    let conn: Open;
    try {
      conn = await this.connection(batch.target);
    } catch (error) {
      return fail(problemOf(batch.target, error as Error, true));
    }
    const payload = Buffer.concat(batch.records.map((r) => octetFrame(formatSyslog(batch.chain, r, this.options.hostname))));
    try {
      await this.write(conn, payload, describe(batch.target));
    } catch (error) {
      this.drop(conn);
      const e = error as Error & { code?: string };
      return fail(e.code ? problemOf(batch.target, e) : { text: e.message, said: phrase('collector_failed', { where: describe(batch.target), error: e.message }) });
    }
    return { kind: 'audit-export-result', batch: batch.batch, ok: true, through_seq: batch.records[batch.records.length - 1]!.seq, bytes: payload.length };
  }

  private write(conn: Open, payload: Buffer, where: string): Promise<void> {
    const { socket } = conn;
    const timeoutMs = this.options.writeTimeoutMs ?? 20_000;
    return new Promise<void>((resolve, reject) => {
      let done = false;
      const finish = (error?: Error) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        socket.off('close', onClose);
        socket.off('error', onError);
        if (error) reject(error);
        else resolve();
      };
      const onError = (error: Error) => finish(error);
      const onClose = () => finish(new Error(`The collector closed the connection before taking the batch${conn.ended ? ` (${conn.ended})` : ''}.`));
      const timer = setTimeout(() => finish(new Error(`The collector at ${where} took no data for ${Math.round(timeoutMs / 1000)} s: it is too slow, stuck, or its disk is full.`)), timeoutMs);
      if (conn.ended) return finish(new Error(`The collector had closed the connection (${conn.ended}).`));
      socket.once('error', onError);
      socket.once('close', onClose);
      socket.write(payload, (error) => {
        if (error) return finish(error);
        // Flushed to the kernel; a collector that went away answers a moment later with a reset or a close.
        setTimeout(() => (conn.ended ? finish(new Error(`The collector closed the connection right after the batch (${conn.ended}).`)) : finish()), this.options.settleMs ?? 50);
      });
    });
  }

  private drop(conn: Open): void {
    conn.socket.destroy();
    if (this.open === conn) this.open = undefined;
  }

  private async connection(target: AuditExportTarget): Promise<Open> {
    const key = canonicalJson(target);
    if (this.open && this.open.key === key && !this.open.ended && !this.open.socket.destroyed) return this.open;
    if (this.open) this.drop(this.open);
    const socket = await this.connect(target);
    const conn: Open = { key, socket };
    socket.on('end', () => (conn.ended ??= 'the collector ended it'));
    socket.on('close', () => (conn.ended ??= 'closed'));
    socket.on('error', (error) => {
      conn.ended ??= error.message;
      this.options.log(`audit export: ${describe(target)}: ${error.message}`);
    });
    // The collector never speaks on this connection; anything it sends is read and ignored.
    socket.on('data', () => undefined);
    this.open = conn;
    this.options.log(`audit export: connected to ${describe(target)}`);
    return conn;
  }

  private connect(target: AuditExportTarget): Promise<Socket> {
    const timeoutMs = this.options.connectTimeoutMs ?? 10_000;
    return new Promise<Socket>((resolve, reject) => {
      const socket = target.tls
        ? tlsConnect({ host: target.host, port: target.port, servername: target.server_name ?? target.host, ...(target.ca ? { ca: target.ca } : {}), rejectUnauthorized: true })
        : tcpConnect({ host: target.host, port: target.port });
      const ready = target.tls ? 'secureConnect' : 'connect';
      const timer = setTimeout(() => {
        socket.destroy();
        const seconds = Math.round(timeoutMs / 1000);
        reject(target.tls ? new Error(`the TLS handshake did not finish within ${seconds} s`) : Object.assign(new Error(`no connection within ${seconds} s`), { code: 'ETIMEDOUT' }));
      }, timeoutMs);
      socket.once(ready, () => {
        clearTimeout(timer);
        socket.off('error', onError);
        socket.setKeepAlive(true, 30_000);
        resolve(socket);
      });
      const onError = (error: Error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      };
      socket.once('error', onError);
    });
  }
}
