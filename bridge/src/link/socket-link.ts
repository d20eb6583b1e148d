import { randomBytes } from 'node:crypto';
import { createConnection, type Socket } from 'node:net';
import { BridgeRequests } from '../../../src/protocol/bridge.ts';
import { parseReply, refuse, type Reply } from '../../../src/protocol/channel.ts';
import { encodeLine, LineReader } from './ndjson.ts';
import { SOCKET_REQUEST_MAX_BYTES, SOCKET_RESPONSE_MAX_BYTES, SocketEvent, SocketResponse } from './socket-protocol.ts';
import type { BridgeEvent } from '../../../src/protocol/bridge.ts';
import type { StewardLink } from './steward-link.ts';

export interface LinkOptions {
  socketPath: string;
  log: (line: string) => void;
  /** How long a call made while Steward is not connected waits for it (default: STEWARD_BRIDGE_LINK_WAIT_MS, else 10 s). */
  waitMs?: number;
  /** How long a call waits for Steward's answer (default 120 s). */
  callTimeoutMs?: number;
}

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5000;

const NOT_CONNECTED_MESSAGE = 'Steward is not connected: open the browser with Steward (and run `steward-bridge install` once so the browser can start the bridge host), then call again.';
const DROPPED_MESSAGE = 'The link to Steward dropped while this call was in flight: the action may have run. Call again with the same idempotency_key to get its outcome without running it twice.';

function defaultWaitMs(): number {
  const fromEnv = Number(process.env.STEWARD_BRIDGE_LINK_WAIT_MS);
  return Number.isFinite(fromEnv) && fromEnv >= 0 && process.env.STEWARD_BRIDGE_LINK_WAIT_MS !== '' ? fromEnv : 10_000;
}

interface Pending {
  type: keyof BridgeRequests & string;
  settle: (reply: Reply<unknown>) => void;
}

/**
 * The link to Steward through the native host's socket (NDJSON, src/link/socket-protocol.ts).
 * It reconnects with backoff for as long as the process lives, so the browser may start after the
 * MCP client, restart, or close and come back.
 */
export function connectLink(options: LinkOptions): StewardLink {
  const waitMs = options.waitMs ?? defaultWaitMs();
  const callTimeoutMs = options.callTimeoutMs ?? 120_000;
  const log = options.log;
  const pending = new Map<string, Pending>();
  const listeners = new Set<(event: BridgeEvent) => void>();
  let waiters: Array<() => void> = [];
  let socket: Socket | null = null;
  let up = false;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let saidDown = false;
  let counter = 0;
  const prefix = randomBytes(4).toString('hex');

  const settleAll = (reply: Reply<unknown>) => {
    for (const call of pending.values()) call.settle(reply);
    pending.clear();
  };

  const connect = () => {
    retryTimer = undefined;
    if (closed) return;
    const attempt = createConnection(options.socketPath);
    socket = attempt;
    const reader = new LineReader(SOCKET_RESPONSE_MAX_BYTES);
    attempt.on('connect', () => {
      up = true;
      saidDown = false;
      retryMs = FIRST_RETRY_MS;
      log(`connected to Steward's host on ${options.socketPath}`);
      const ready = waiters;
      waiters = [];
      for (const wake of ready) wake();
    });
    attempt.on('data', (chunk: Buffer) => {
      for (const event of reader.push(chunk)) {
        if (event.kind === 'dropped') {
          log(`dropped a response from the host: ${event.reason}`);
          continue;
        }
        const told = SocketEvent.safeParse(event.value);
        if (told.success) {
          for (const listener of listeners) listener(told.data.event);
          continue;
        }
        const response = SocketResponse.safeParse(event.value);
        if (!response.success) {
          log(`dropped a response from the host that does not fit the socket protocol: ${response.error.issues[0]?.message ?? ''}`);
          continue;
        }
        const call = pending.get(response.data.id);
        if (!call) {
          log(`dropped a response to ${response.data.id}: no call is waiting for it`);
          continue;
        }
        pending.delete(response.data.id);
        call.settle(parseReply(BridgeRequests, call.type, response.data.reply));
      }
    });
    attempt.on('error', (error: NodeJS.ErrnoException) => {
      if (!saidDown) log(`Steward's host is not reachable on ${options.socketPath} (${error.code ?? error.message}); retrying`);
      saidDown = true;
    });
    attempt.on('close', () => {
      if (socket === attempt) socket = null;
      if (up) log(`lost the link to Steward's host; reconnecting`);
      up = false;
      settleAll(refuse('STEWARD_UNAVAILABLE', DROPPED_MESSAGE, true));
      if (closed) return;
      retryTimer = setTimeout(connect, retryMs);
      retryTimer.unref();
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    });
  };

  /** Resolves true once the link is up, false after `waitMs` (or when the link is closed). */
  const waitForLink = (): Promise<boolean> => {
    if (up) return Promise.resolve(true);
    if (closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(up);
      };
      const timer = setTimeout(() => {
        waiters = waiters.filter((w) => w !== wake);
        resolve(false);
      }, waitMs);
      waiters.push(wake);
      // A wait is a good moment to try at once rather than at the end of a long backoff.
      if (retryTimer && !socket) {
        clearTimeout(retryTimer);
        connect();
      }
    });
  };

  connect();

  return {
    async call(type, payload) {
      const id = `${prefix}-${++counter}`;
      const line = encodeLine({ id, message: { ...payload, type } });
      if (Buffer.byteLength(line) > SOCKET_REQUEST_MAX_BYTES) return refuse('REQUEST_TOO_LARGE', `The ${type} request is over the ${SOCKET_REQUEST_MAX_BYTES}-byte limit of a message to Steward.`);
      if (!(await waitForLink()) || !socket) return refuse('STEWARD_UNAVAILABLE', NOT_CONNECTED_MESSAGE, true);
      const target = socket;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve(
            refuse(
              'TIMEOUT',
              `Steward did not answer ${type} within ${Math.round(callTimeoutMs / 1000)} s: the action may have run. Call again with the same idempotency_key to get its outcome.`,
              true,
            ),
          );
        }, callTimeoutMs);
        pending.set(id, {
          type,
          settle: (reply) => {
            clearTimeout(timer);
            resolve(reply as never);
          },
        });
        target.write(line);
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    connected: () => up,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const ready = waiters;
      waiters = [];
      for (const wake of ready) wake();
      settleAll(refuse('STEWARD_UNAVAILABLE', 'The bridge is shutting down.', true));
      socket?.destroy();
      socket = null;
    },
  };
}
