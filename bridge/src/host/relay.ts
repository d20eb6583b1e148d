import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { refuse, type Reply } from '../../../src/protocol/channel.ts';
import { ExtensionToHost, HOST_TO_EXTENSION_MAX_BYTES, HostToExtension } from '../../../src/protocol/bridge.ts';
import { encodeLine, LineReader } from '../link/ndjson.ts';
import { SOCKET_REQUEST_MAX_BYTES, SocketEvent, SocketRequest, SocketResponse } from '../link/socket-protocol.ts';
import { encodeFrame } from './framing.ts';
import type { AuditExportBatch, AuditExportResult } from '../../../src/protocol/audit-export.ts';

type Log = (line: string) => void;

/**
 * The host's switchboard: each socket connection (one MCP server process) gets a conn id; its
 * requests go to Steward as `call` frames, and each `reply` goes back to the connection and request
 * it answers. Everything is checked against its schema on the way in and out; what does not fit is
 * dropped with a log line (a socket request that names an id gets a refusal, so its caller is not
 * left waiting).
 */
export class Relay {
  private readonly connections = new Map<string, Socket>();
  /** `${conn}/${id}` of calls Steward has not answered yet. */
  private readonly pending = new Set<string>();

  constructor(
    private readonly writeFrame: (frame: Buffer) => void,
    private readonly log: Log,
    /** Audit entries Steward hands over for the organisation's collector; their result goes back to Steward. */
    private readonly auditExport?: (batch: AuditExportBatch) => Promise<AuditExportResult>,
  ) {}

  /** Sends a message to Steward, if it fits its schema and Chrome's cap. */
  send(message: HostToExtension): boolean {
    const checked = HostToExtension.safeParse(message);
    if (!checked.success) {
      this.log(`dropped a ${message.kind} to Steward that does not fit the protocol: ${checked.error.issues[0]?.message ?? ''}`);
      return false;
    }
    const frame = encodeFrame(checked.data, HOST_TO_EXTENSION_MAX_BYTES);
    if (!frame) return false;
    this.writeFrame(frame);
    return true;
  }

  /** One frame from Steward. */
  fromExtension(value: unknown): void {
    const parsed = ExtensionToHost.safeParse(value);
    if (!parsed.success) {
      this.log(`dropped a frame from Steward that does not fit the protocol: ${parsed.error.issues[0]?.message ?? ''}`);
      return;
    }
    const message = parsed.data;
    if (message.kind === 'hello') {
      this.log(`Steward ${message.extension_version} connected (protocol ${message.protocol})`);
      return;
    }
    if (message.kind === 'audit-export') {
      if (!this.auditExport) return;
      void this.auditExport(message).then(
        (result) => this.send(result),
        (error: unknown) => this.send({ kind: 'audit-export-result', batch: message.batch, ok: false, problem: `The bridge could not send the batch: ${String(error)}`.slice(0, 1000) }),
      );
      return;
    }
    if (message.kind === 'event') {
      // Every MCP server process hears it; each asks Steward again with its own token.
      const line = encodeLine(SocketEvent.parse({ event: message.event }));
      for (const socket of this.connections.values()) if (!socket.destroyed) socket.write(line);
      return;
    }
    const key = `${message.conn}/${message.id}`;
    const socket = this.connections.get(message.conn);
    if (!this.pending.delete(key) || !socket) {
      this.log(`dropped Steward's reply to ${key}: no such call is waiting (its client may have gone)`);
      return;
    }
    this.respond(socket, message.id, message.reply);
  }

  /** A new MCP server process on the socket. */
  accept(socket: Socket): void {
    const conn = `conn-${randomBytes(6).toString('hex')}`;
    this.connections.set(conn, socket);
    // Room above the frame cap, so a request a little too large is answered REQUEST_TOO_LARGE rather than dropped.
    const reader = new LineReader(2 * SOCKET_REQUEST_MAX_BYTES);
    socket.on('data', (chunk: Buffer) => {
      for (const event of reader.push(chunk)) {
        if (event.kind === 'dropped') this.log(`dropped a request from ${conn}: ${event.reason}`);
        else this.fromSocket(conn, socket, event.value);
      }
    });
    socket.on('error', (error) => this.log(`${conn}: ${error.message}`));
    socket.on('close', () => {
      this.connections.delete(conn);
      for (const key of this.pending) if (key.startsWith(`${conn}/`)) this.pending.delete(key);
      this.send({ kind: 'conn-closed', conn });
    });
  }

  /** Ends every socket connection (the host is going away). */
  closeAll(): void {
    for (const socket of this.connections.values()) socket.destroy();
  }

  private fromSocket(conn: string, socket: Socket, value: unknown): void {
    const parsed = SocketRequest.safeParse(value);
    if (!parsed.success) {
      this.log(`dropped a request from ${conn} that does not fit the socket protocol: ${parsed.error.issues[0]?.message ?? ''}`);
      const id = SocketRequest.shape.id.safeParse((value as { id?: unknown } | null)?.id);
      if (id.success) this.respond(socket, id.data, refuse('INVALID_MESSAGE', 'The request does not fit the bridge socket protocol.'));
      return;
    }
    const { id, message } = parsed.data;
    const key = `${conn}/${id}`;
    if (this.pending.has(key)) {
      this.respond(socket, id, refuse('INVALID_MESSAGE', `A request with id ${id} is already waiting for Steward.`));
      return;
    }
    this.pending.add(key);
    if (!this.send({ kind: 'call', id, conn, message })) {
      this.pending.delete(key);
      this.respond(socket, id, refuse('REQUEST_TOO_LARGE', `The request is over the ${HOST_TO_EXTENSION_MAX_BYTES}-byte limit of a message to Steward.`));
    }
  }

  private respond(socket: Socket, id: string, reply: Reply<unknown>): void {
    const response = SocketResponse.safeParse({ id, reply });
    if (!response.success) {
      this.log(`dropped a response for ${id} that does not fit the socket protocol`);
      return;
    }
    if (!socket.destroyed) socket.write(encodeLine(response.data));
  }
}
