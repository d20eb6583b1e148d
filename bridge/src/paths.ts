import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Linux's sun_path holds 108 bytes with the terminating NUL (macOS: 104). */
const SOCKET_PATH_MAX_BYTES = 107;

/** Where the home dir is, without creating it: STEWARD_BRIDGE_HOME, else the per-user config dir. */
export function bridgeHomePath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (env.STEWARD_BRIDGE_HOME) return env.STEWARD_BRIDGE_HOME;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'steward-bridge');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'steward-bridge');
}

/**
 * Makes `dir` a private directory: created 0700, or tightened to 0700 when it exists and is ours.
 * One that belongs to another user is refused: its owner could read the socket and credentials.
 */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = statSync(dir);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a directory.`);
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) throw new Error(`${dir} belongs to another user (uid ${stat.uid}); refusing to keep Steward's bridge files there.`);
  if ((stat.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
  return dir;
}

/** The bridge's home dir (socket, HTTP token, paired clients' credentials, the host launcher), created 0700. */
export function bridgeHome(override?: string): string {
  return ensurePrivateDir(override ?? bridgeHomePath());
}

/** The per-user socket where the host listens and `serve` connects. */
export function socketPath(home: string): string {
  const path = join(home, 'bridge.sock');
  const bytes = Buffer.byteLength(path);
  if (bytes > SOCKET_PATH_MAX_BYTES) {
    throw new Error(`The socket path ${path} is ${bytes} bytes, longer than the ${SOCKET_PATH_MAX_BYTES} bytes a Unix socket path may have; set STEWARD_BRIDGE_HOME to a shorter directory.`);
  }
  return path;
}
