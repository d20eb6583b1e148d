import { chmodSync, lstatSync, statSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export type Listening = { kind: 'listening'; close(): Promise<void> } | { kind: 'busy' };

/** Whether something accepts connections on `path` (a live host), as opposed to a socket file left by one that died. */
export function probeSocket(path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const done = (live: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(live);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function removeStale(path: string): void {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return;
  }
  if (!stat.isSocket()) throw new Error(`${path} exists and is not a socket; remove it if it is not needed.`);
  unlinkSync(path);
}

function listen(server: Server, path: string): Promise<'ok' | 'busy'> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve('busy') : reject(error));
    server.once('error', onError);
    server.listen(path, () => {
      server.off('error', onError);
      resolve('ok');
    });
  });
}

/**
 * Listens on a Unix socket only its user may use (0600; created under a 0077 umask so it is never
 * looser, even for a moment). A live listener already there means another host runs: `busy`. A
 * stale socket file is replaced. Closing unlinks the file, unless another process has replaced it.
 */
export async function listenPrivate(path: string, onConnection: (socket: Socket) => void): Promise<Listening> {
  if (await probeSocket(path)) return { kind: 'busy' };
  removeStale(path);
  const server = createServer(onConnection);
  const umask = process.umask(0o177);
  let outcome;
  try {
    outcome = await listen(server, path);
  } finally {
    process.umask(umask);
  }
  if (outcome === 'busy') return { kind: 'busy' };
  chmodSync(path, 0o600);
  const inode = statSync(path).ino;
  return {
    kind: 'listening',
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        try {
          if (statSync(path).ino === inode) unlinkSync(path);
        } catch {
          // Already gone.
        }
      }),
  };
}
