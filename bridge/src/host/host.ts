import type { Readable, Writable } from 'node:stream';
import { EXTENSION_TO_HOST_MAX_BYTES } from '../../../src/protocol/bridge.ts';
import { ensurePrivateDir, socketPath } from '../paths.ts';
import { FrameReader } from './framing.ts';
import { listenPrivate } from './private-socket.ts';
import { Relay } from './relay.ts';
import { hostname } from 'node:os';
import { AuditForwarder } from '../audit/forwarder.ts';

export interface HostOptions {
  /** What Chrome passed: the caller's origin, `chrome-extension://<id>/`. */
  origin: string;
  home: string;
  /** The extensions allowed to run this host (Steward unpacked, from the Web Store, or both). */
  extensionIds: readonly string[];
  version: string;
  log: (line: string) => void;
  input: Readable;
  output: Writable;
}

/**
 * The native-messaging host: Chrome starts it for Steward and talks to it on stdin/stdout; it
 * listens on the per-user socket for `steward-bridge serve` processes and relays between them.
 * Resolves with the exit code once stdin ends (Steward disconnected or the browser closed), on
 * SIGTERM/SIGINT, or at once when it must not run.
 */
export async function runHost(options: HostOptions): Promise<number> {
  const { log } = options;
  const expected = options.extensionIds.map((id) => `chrome-extension://${id}/`);
  if (!expected.includes(options.origin)) {
    log(`refusing to run: started for ${JSON.stringify(options.origin)}, but only Steward (${expected.join(', ')}) may use this host.`);
    return 1;
  }
  const path = socketPath(ensurePrivateDir(options.home));
  let stopping = false;
  const forwarder = new AuditForwarder({ hostname: hostname(), log });
  const relay = new Relay(
    (frame) => {
      if (!stopping) options.output.write(frame);
    },
    log,
    (batch) => forwarder.send(batch),
  );
  const listening = await listenPrivate(path, (socket) => relay.accept(socket));
  if (listening.kind === 'busy') {
    log(`another Steward host is already listening on ${path} (Steward open in another browser or profile?); this one exits.`);
    return 1;
  }
  log(`listening on ${path}`);

  return new Promise<number>((resolve) => {
    const stop = (why: string) => {
      if (stopping) return;
      stopping = true;
      log(`exiting: ${why}`);
      relay.closeAll();
      forwarder.close();
      void listening.close().then(() => resolve(0));
    };
    const reader = new FrameReader(EXTENSION_TO_HOST_MAX_BYTES);
    options.input.on('data', (chunk: Buffer) => {
      for (const event of reader.push(chunk)) {
        if (event.kind === 'dropped') log(`dropped a frame from Steward: ${event.reason}`);
        else relay.fromExtension(event.value);
      }
    });
    options.input.on('end', () => stop('Steward disconnected (stdin ended)'));
    options.input.on('error', (error) => stop(`stdin: ${error.message}`));
    options.output.on('error', (error) => stop(`stdout: ${error.message}`));
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
    // Greeted only once every handler is in place: whoever reads the hello may stop the host at once.
    relay.send({ kind: 'hello', host_version: options.version, protocol: 1 });
  });
}
