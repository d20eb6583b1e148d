import { homedir } from 'node:os';
import { join } from 'node:path';

export type Browser = 'chromium' | 'chrome' | 'all';

export interface Where {
  /** A browser profile's user data dir (tests, a separate profile): its NativeMessagingHosts only. */
  userDataDir?: string;
  browser?: Browser;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

/**
 * The NativeMessagingHosts dirs the host manifest goes into: the given profile's, else the
 * user-level ones Chromium and Chrome read. Null where a manifest is not a file (Windows uses the
 * registry).
 */
export function manifestDirs(where: Where): string[] | null {
  if (where.userDataDir) return [join(where.userDataDir, 'NativeMessagingHosts')];
  const platform = where.platform ?? process.platform;
  const home = where.home ?? homedir();
  const browser = where.browser ?? 'all';
  let dirs: Record<Exclude<Browser, 'all'>, string>;
  if (platform === 'darwin') {
    const support = join(home, 'Library', 'Application Support');
    dirs = { chromium: join(support, 'Chromium'), chrome: join(support, 'Google', 'Chrome') };
  } else if (platform === 'win32') {
    return null;
  } else {
    const config = (where.env ?? process.env).XDG_CONFIG_HOME || join(home, '.config');
    dirs = { chromium: join(config, 'chromium'), chrome: join(config, 'google-chrome') };
  }
  const chosen = browser === 'all' ? [dirs.chromium, dirs.chrome] : [dirs[browser]];
  return chosen.map((dir) => join(dir, 'NativeMessagingHosts'));
}
