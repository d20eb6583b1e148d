import { join as nativeJoin } from 'node:path';
import { BRIDGE_HOST_NAME } from '../../../src/protocol/bridge.ts';

/**
 * Where each Chromium-based browser looks for a user-level native-messaging host, per platform.
 * Pure: the person's home, environment and platform come in, paths and registry keys go out.
 *
 * Chromium reads `<user data dir>/NativeMessagingHosts` on Linux and macOS (chrome_paths.cc,
 * DIR_USER_NATIVE_MESSAGING), so the table is each browser's default user data dir. On Windows it
 * reads the manifest path from `HKCU\Software\<vendor>\NativeMessagingHosts\<host>` (every Chrome
 * channel shares Google\Chrome; Chromium tries its own key first, then Chrome's).
 */

export const BROWSERS = ['chrome', 'chrome-beta', 'chrome-dev', 'chrome-canary', 'chromium', 'edge', 'brave'] as const;
export type BrowserName = (typeof BROWSERS)[number];

export const BROWSER_LABELS: Record<BrowserName, string> = {
  chrome: 'Google Chrome',
  'chrome-beta': 'Google Chrome Beta',
  'chrome-dev': 'Google Chrome Dev',
  'chrome-canary': 'Google Chrome Canary',
  chromium: 'Chromium',
  edge: 'Microsoft Edge',
  brave: 'Brave',
};

/** The person whose browsers these are: their home (not the bridge's), environment and platform. */
export interface UserPlace {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
  /** How paths are joined (the platform's own by default; tests of another platform's table pass path.win32.join). */
  join?: (...parts: string[]) => string;
}

/** A browser's user data dir and where it reads the host manifest: a dir (Linux, macOS) or a registry key (Windows). */
export type BrowserPlace = { kind: 'dir'; browser: BrowserName; userDataDir: string; manifestDir: string } | { kind: 'registry'; browser: BrowserName; userDataDir: string; key: string };

/** Under $XDG_CONFIG_HOME (~/.config). Chrome's channels add -beta, -unstable (Dev) and -canary (channel_info_posix.cc). */
const LINUX: Record<BrowserName, string[]> = {
  chrome: ['google-chrome'],
  'chrome-beta': ['google-chrome-beta'],
  'chrome-dev': ['google-chrome-unstable'],
  'chrome-canary': ['google-chrome-canary'],
  chromium: ['chromium'],
  edge: ['microsoft-edge'],
  brave: ['BraveSoftware', 'Brave-Browser'],
};

/** Under ~/Library/Application Support. */
const MAC: Record<BrowserName, string[]> = {
  chrome: ['Google', 'Chrome'],
  'chrome-beta': ['Google', 'Chrome Beta'],
  'chrome-dev': ['Google', 'Chrome Dev'],
  'chrome-canary': ['Google', 'Chrome Canary'],
  chromium: ['Chromium'],
  edge: ['Microsoft Edge'],
  brave: ['BraveSoftware', 'Brave-Browser'],
};

/** The user data dir under %LOCALAPPDATA%, and the vendor part of the registry key. */
const WINDOWS: Record<BrowserName, { data: string[]; vendor: string }> = {
  chrome: { data: ['Google', 'Chrome', 'User Data'], vendor: 'Google\\Chrome' },
  'chrome-beta': { data: ['Google', 'Chrome Beta', 'User Data'], vendor: 'Google\\Chrome' },
  'chrome-dev': { data: ['Google', 'Chrome Dev', 'User Data'], vendor: 'Google\\Chrome' },
  'chrome-canary': { data: ['Google', 'Chrome SxS', 'User Data'], vendor: 'Google\\Chrome' },
  chromium: { data: ['Chromium', 'User Data'], vendor: 'Chromium' },
  edge: { data: ['Microsoft', 'Edge', 'User Data'], vendor: 'Microsoft\\Edge' },
  brave: { data: ['BraveSoftware', 'Brave-Browser', 'User Data'], vendor: 'BraveSoftware\\Brave-Browser' },
};

/** The HKCU key whose default value is the manifest's path. */
const registryKey = (vendor: string): string => `HKCU\\Software\\${vendor}\\NativeMessagingHosts\\${BRIDGE_HOST_NAME}`;

export const isBrowserName = (value: string): value is BrowserName => (BROWSERS as readonly string[]).includes(value);

export function browserPlace(browser: BrowserName, place: UserPlace): BrowserPlace {
  const join = place.join ?? nativeJoin;
  if (place.platform === 'win32') {
    const { data, vendor } = WINDOWS[browser];
    const localAppData = place.env.LOCALAPPDATA || join(place.home, 'AppData', 'Local');
    return { kind: 'registry', browser, userDataDir: join(localAppData, ...data), key: registryKey(vendor) };
  }
  const userDataDir =
    place.platform === 'darwin' ? join(place.home, 'Library', 'Application Support', ...MAC[browser]) : join(place.env.XDG_CONFIG_HOME || join(place.home, '.config'), ...LINUX[browser]);
  return { kind: 'dir', browser, userDataDir, manifestDir: join(userDataDir, 'NativeMessagingHosts') };
}

export type BrowserChoice = { ok: true; places: BrowserPlace[]; skipped: BrowserName[] } | { ok: false; problem: string };

/**
 * The browsers to install for: the named ones (each must have its user data dir, i.e. be installed
 * and started once), or with `all` every one that has it (the rest are skipped, and none is an error).
 */
export function chooseBrowsers(requested: readonly BrowserName[] | 'all', place: UserPlace, exists: (path: string) => boolean): BrowserChoice {
  const all = requested === 'all';
  const places = (all ? BROWSERS : requested).map((browser) => browserPlace(browser, place));
  const present = places.filter((p) => exists(p.userDataDir));
  if (all) {
    if (present.length > 0) return { ok: true, places: present, skipped: places.filter((p) => !present.includes(p)).map((p) => p.browser) };
    return {
      ok: false,
      problem: `No Chromium-based browser has been used by this user yet (looked for ${places.map((p) => p.userDataDir).join(', ')}): start Chrome, Chromium, Edge or Brave once, or name one with --browser.`,
    };
  }
  const missing = places.find((p) => !present.includes(p));
  if (missing) {
    return {
      ok: false,
      problem: `${BROWSER_LABELS[missing.browser]} has no user data dir at ${missing.userDataDir}, so it is not installed or has never been started: start it once, or choose another with --browser.`,
    };
  }
  return { ok: true, places, skipped: [] };
}
