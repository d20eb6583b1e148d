import { win32 } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserPlace, BROWSERS, chooseBrowsers, type BrowserName } from '../../../bridge/src/install/browsers.ts';
import { extensionIds } from '../../../bridge/src/install/extension-ids.ts';
import { launcherText, readLauncher } from '../../../bridge/src/install/launcher.ts';

/** Where each browser reads a user-level host manifest, per platform: the table, as literal paths a person would find. */

const linux = { platform: 'linux' as const, home: '/home/ann', env: {} };
const mac = { platform: 'darwin' as const, home: '/Users/ann', env: {} };
const windows = { platform: 'win32' as const, home: 'C:\\Users\\Ann', env: { LOCALAPPDATA: 'C:\\Users\\Ann\\AppData\\Local' }, join: win32.join };
const dirOf = (browser: BrowserName, user: Parameters<typeof browserPlace>[1]) => {
  const place = browserPlace(browser, user);
  return place.kind === 'dir' ? place.manifestDir : place.key;
};

describe('where each browser reads the host manifest', () => {
  it('Linux: under ~/.config, or $XDG_CONFIG_HOME when set', () => {
    expect(Object.fromEntries(BROWSERS.map((b) => [b, dirOf(b, linux)]))).toEqual({
      chrome: '/home/ann/.config/google-chrome/NativeMessagingHosts',
      'chrome-beta': '/home/ann/.config/google-chrome-beta/NativeMessagingHosts',
      'chrome-dev': '/home/ann/.config/google-chrome-unstable/NativeMessagingHosts',
      'chrome-canary': '/home/ann/.config/google-chrome-canary/NativeMessagingHosts',
      chromium: '/home/ann/.config/chromium/NativeMessagingHosts',
      edge: '/home/ann/.config/microsoft-edge/NativeMessagingHosts',
      brave: '/home/ann/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts',
    });
    expect(dirOf('chromium', { ...linux, env: { XDG_CONFIG_HOME: '/data/cfg' } })).toBe('/data/cfg/chromium/NativeMessagingHosts');
  });

  it('macOS: under ~/Library/Application Support', () => {
    expect(Object.fromEntries(BROWSERS.map((b) => [b, dirOf(b, mac)]))).toEqual({
      chrome: '/Users/ann/Library/Application Support/Google/Chrome/NativeMessagingHosts',
      'chrome-beta': '/Users/ann/Library/Application Support/Google/Chrome Beta/NativeMessagingHosts',
      'chrome-dev': '/Users/ann/Library/Application Support/Google/Chrome Dev/NativeMessagingHosts',
      'chrome-canary': '/Users/ann/Library/Application Support/Google/Chrome Canary/NativeMessagingHosts',
      chromium: '/Users/ann/Library/Application Support/Chromium/NativeMessagingHosts',
      edge: '/Users/ann/Library/Application Support/Microsoft Edge/NativeMessagingHosts',
      brave: '/Users/ann/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts',
    });
  });

  it('Windows: an HKCU key per vendor (every Chrome channel shares Google\\Chrome), found through %LOCALAPPDATA%', () => {
    const host = 'NativeMessagingHosts\\com.steward.bridge';
    expect(Object.fromEntries(BROWSERS.map((b) => [b, dirOf(b, windows)]))).toEqual({
      chrome: `HKCU\\Software\\Google\\Chrome\\${host}`,
      'chrome-beta': `HKCU\\Software\\Google\\Chrome\\${host}`,
      'chrome-dev': `HKCU\\Software\\Google\\Chrome\\${host}`,
      'chrome-canary': `HKCU\\Software\\Google\\Chrome\\${host}`,
      chromium: `HKCU\\Software\\Chromium\\${host}`,
      edge: `HKCU\\Software\\Microsoft\\Edge\\${host}`,
      brave: `HKCU\\Software\\BraveSoftware\\Brave-Browser\\${host}`,
    });
    expect(browserPlace('chrome-canary', windows).userDataDir).toBe('C:\\Users\\Ann\\AppData\\Local\\Google\\Chrome SxS\\User Data');
    expect(browserPlace('edge', { ...windows, env: {} }).userDataDir).toBe('C:\\Users\\Ann\\AppData\\Local\\Microsoft\\Edge\\User Data');
  });

  it('all = the browsers whose user data dir exists (the rest skipped); none, or a named one missing, is one clear sentence', () => {
    const present = new Set(['/home/ann/.config/chromium', '/home/ann/.config/BraveSoftware/Brave-Browser']);
    const all = chooseBrowsers('all', linux, (p) => present.has(p));
    expect(all.ok && all.places.map((p) => p.browser)).toEqual(['chromium', 'brave']);
    expect(all.ok && all.skipped).toEqual(['chrome', 'chrome-beta', 'chrome-dev', 'chrome-canary', 'edge']);

    const none = chooseBrowsers('all', linux, () => false);
    expect(none).toEqual({ ok: false, problem: expect.stringMatching(/^No Chromium-based browser has been used by this user yet \(looked for .*\): start .* once, or name one with --browser\.$/) });
    const edge = chooseBrowsers(['chromium', 'edge'], linux, (p) => present.has(p));
    expect(edge).toEqual({
      ok: false,
      problem: 'Microsoft Edge has no user data dir at /home/ann/.config/microsoft-edge, so it is not installed or has never been started: start it once, or choose another with --browser.',
    });
  });
});

describe('extension ids', () => {
  it('takes several 32-letter a–p ids, else the previous install’s, else Steward’s unpacked id; anything else is refused by name', () => {
    const store = 'abcdefghijklmnopabcdefghijklmnop';
    expect(extensionIds([store, 'iodcoaibgikagkbaifmcklmipgpmmcip', store])).toEqual({ ok: true, ids: [store, 'iodcoaibgikagkbaifmcklmipgpmmcip'] });
    expect(extensionIds([], [store])).toEqual({ ok: true, ids: [store] });
    expect(extensionIds([])).toEqual({ ok: true, ids: ['iodcoaibgikagkbaifmcklmipgpmmcip'] });
    for (const bad of ['IODCOAIBGIKAGKBAIFMCKLMIPGPMMCIP', 'iodcoaibgikagkbaifmcklmipgpmmci', 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', 'chrome-extension://iodcoaibgikagkbaifmcklmipgpmmcip/']) {
      const outcome = extensionIds([store, bad]);
      expect(outcome.ok).toBe(false);
      expect(!outcome.ok && outcome.problem).toBe(
        `${JSON.stringify(bad)} is not an extension id: an id is 32 letters a–p, like iodcoaibgikagkbaifmcklmipgpmmcip (Steward loaded unpacked) or the id chrome://extensions shows for Steward from the Web Store.`,
      );
    }
  });
});

describe('the launcher', () => {
  const spec = {
    nodePath: "/opt/my node's/bin/node",
    nodeFlags: ['--import', 'tsx/esm'],
    cliPath: '/srv/steward bridge/dist/cli.js',
    home: '/home/ann/.config/steward-bridge',
    extensionIds: ['a'.repeat(32), 'b'.repeat(32)],
  };

  it('sh: every path single-quoted (spaces and quotes survive), the home and ids exported, and read back as written', () => {
    const text = launcherText(spec, 'linux');
    expect(text).toContain(`exec '/opt/my node'\\''s/bin/node' '--import' 'tsx/esm' '/srv/steward bridge/dist/cli.js' host "$@"`);
    expect(text).toContain(`STEWARD_EXTENSION_ID='${'a'.repeat(32)},${'b'.repeat(32)}'`);
    expect(readLauncher(text, 'linux')).toEqual(spec);
  });

  it('cmd: paths double-quoted with % doubled, CRLF lines, and read back as written', () => {
    const win = { ...spec, nodePath: 'C:\\Program Files\\nodejs\\node.exe', cliPath: 'C:\\Users\\Ann\\100% tools\\cli.js', home: 'C:\\Users\\Ann\\steward-bridge' };
    const text = launcherText(win, 'win32');
    expect(text.split('\r\n')).toContain('"C:\\Program Files\\nodejs\\node.exe" "--import" "tsx/esm" "C:\\Users\\Ann\\100%% tools\\cli.js" host %*');
    expect(text.startsWith('@echo off\r\n')).toBe(true);
    expect(readLauncher(text, 'win32')).toEqual(win);
  });

  it('a script steward-bridge did not write is not read as a launcher', () => {
    expect(readLauncher('#!/bin/sh\nexec /usr/bin/other "$@"\n', 'linux')).toBeNull();
  });
});
