import { BridgeRequests, EXTENSION_TO_HOST_MAX_BYTES, HostToExtension, type ExtensionToHost } from '../../protocol/bridge.ts';
import type { AuditExportResult } from '../../protocol/audit-export.ts';
import { dispatch, refuse, type Handlers, type Reply } from '../../protocol/channel.ts';

/**
 * Every message from the native host, parsed before anything else (HostToExtension): a hello
 * marks the link up, a call goes to its BridgeRequests handler and its reply goes back with the
 * call's id and connection. What does not fit is dropped and logged (the content never), and
 * nothing here throws. Calls run concurrently; a reply too large for the link becomes a refusal.
 */

/** Which MCP server process a call came through (the host's connection id). */
export interface CallContext {
  conn: string;
}

export interface BridgeRouterDeps {
  handlers: Handlers<BridgeRequests, CallContext>;
  post(message: ExtensionToHost): void;
  hello(hostVersion: string): void;
  /** The host's answer to a batch of the audit export. */
  auditExportResult?(result: AuditExportResult): void;
  /** An MCP server process disconnected from the host. */
  connClosed?(conn: string): void;
  log?(message: string): void;
}

const bytes = (text: string) => new TextEncoder().encode(text).length;

export function createBridgeRouter(deps: BridgeRouterDeps): (raw: unknown) => Promise<void> {
  const log = deps.log ?? ((m: string) => console.warn(m));

  /** The reply envelope, or a refusal in its place when it cannot go over the link as it is. */
  function envelope(id: string, conn: string, reply: Reply<unknown>): ExtensionToHost {
    const message: ExtensionToHost = { kind: 'reply', id, conn, reply };
    let size: number;
    try {
      size = bytes(JSON.stringify(message));
    } catch (error) {
      return { kind: 'reply', id, conn, reply: refuse('INTERNAL', `Steward could not encode its reply: ${String(error)}`) };
    }
    if (size <= EXTENSION_TO_HOST_MAX_BYTES) return message;
    return {
      kind: 'reply',
      id,
      conn,
      reply: refuse('REPLY_TOO_LARGE', `Steward's reply (${size} bytes) is larger than the link carries (${EXTENSION_TO_HOST_MAX_BYTES}); ask for less (a query, or one ref).`),
    };
  }

  return async (raw) => {
    const parsed = HostToExtension.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      log(`MCP bridge: dropped a message that does not fit the protocol (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`);
      return;
    }
    const message = parsed.data;
    if (message.kind === 'hello') return deps.hello(message.host_version);
    if (message.kind === 'conn-closed') return deps.connClosed?.(message.conn);
    if (message.kind === 'audit-export-result') return deps.auditExportResult?.(message);
    let reply: Reply<unknown>;
    try {
      reply = await dispatch(BridgeRequests, deps.handlers, message.message, { conn: message.conn });
    } catch (error) {
      reply = refuse('INTERNAL', String(error), true);
    }
    try {
      deps.post(envelope(message.id, message.conn, reply));
    } catch (error) {
      log(`MCP bridge: the reply to ${message.id} could not be sent: ${String(error)}`);
    }
  };
}
