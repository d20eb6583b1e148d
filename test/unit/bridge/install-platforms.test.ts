import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doctor, type DoctorOptions } from '../../../bridge/src/doctor/doctor.ts';
import { probeHost, type HostProbe } from '../../../bridge/src/doctor/probe-host.ts';
import { probeSocket } from '../../../bridge/src/host/private-socket.ts';
import type { UserPlace } from '../../../bridge/src/install/browsers.ts';
import { install, type InstallOptions } from '../../../bridge/src/install/install.ts';
import { uninstall } from '../../../bridge/src/install/uninstall.ts';
import { bridgeHomePath } from '../../../bridge/src/paths.ts';
import { CLI, startHost, tempDir } from './cli-process.ts';
import { FakeRegistry, filesUnder, useBrowsers } from './install-homes.ts';

/**
 * install, doctor and uninstall against a temporary home laid out as a person's on Linux, macOS and
 * Windows (the platform injected; on Windows the registry is a recorder). The launchers are real
 * and run: doctor starts them as the browser would.
 */

const ID = 'iodcoaibgikagkbaifmcklmipgpmmcip';
const MANIFEST = 'com.steward.bridge.json';
const command = { nodePath: process.execPath, nodeFlags: ['--no-deprecation'], cliPath: CLI };

let dir: ReturnType<typeof tempDir>;
let home: string;
beforeEach(() => {
  dir = tempDir();
  home = join(dir.path, 'ann');
});
afterEach(() => dir.remove());

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

function setUp(platform: 'linux' | 'darwin' | 'win32', reg?: FakeRegistry) {
  const env = platform === 'win32' ? { LOCALAPPDATA: join(home, 'AppData', 'Local') } : {};
  const user: UserPlace = { platform, home, env };
  const bridge = platform === 'win32' ? join(home, 'AppData', 'Local', 'steward-bridge') : bridgeHomePath({}, platform, home);
  const base = { user, home: bridge, reg: reg?.run };
  const installing = (more: Partial<InstallOptions> = {}) => install({ ...base, browsers: 'all', givenIds: [], defaultIds: [ID], command, ...more });
  const checking = (more: Partial<DoctorOptions> = {}) => doctor({ ...base, givenIds: [], defaultIds: [ID], probeHost, probeSocket, fixFlags: [], ...more });
  return { user, bridge, installing, checking, uninstalling: () => uninstall(base) };
}

const checksOf = (report: Awaited<ReturnType<typeof doctor>>) =>
  Object.fromEntries(report.browsers.map((b) => [b.browser, b.checks.map((c) => `${c.ok ? 'ok' : 'problem'}: ${c.text}${c.fix ? ` → ${c.fix}` : ''}`)]));

describe('on Linux', { timeout: 60_000 }, () => {
  it('installs into ~/.config/<browser>/NativeMessagingHosts of each browser the person uses, the launcher in the bridge home; doctor passes; uninstall leaves nothing', async () => {
    useBrowsers(home, 'linux', ['chrome', 'chromium']);
    const { installing, checking, uninstalling, bridge } = setUp('linux');

    const outcome = installing();
    expect(outcome.ok && outcome.skipped).toEqual(['chrome-beta', 'chrome-dev', 'chrome-canary', 'edge', 'brave']);
    const launcher = join(bridge, 'host', 'steward-bridge-host');
    expect(filesUnder(home)).toEqual([
      `.config/chromium/NativeMessagingHosts/${MANIFEST}`,
      `.config/google-chrome/NativeMessagingHosts/${MANIFEST}`,
      '.config/steward-bridge/host/steward-bridge-host',
      '.config/steward-bridge/install.json',
    ]);
    for (const browser of ['chromium', 'google-chrome']) {
      expect(json(join(home, '.config', browser, 'NativeMessagingHosts', MANIFEST))).toMatchObject({
        name: 'com.steward.bridge',
        path: launcher,
        type: 'stdio',
        allowed_origins: [`chrome-extension://${ID}/`],
      });
    }

    // No browser running: every browser check passes (the launcher really starts a host that says hello), Steward is not connected.
    const alone = await checking();
    expect(checksOf(alone).chromium).toEqual([
      `ok: host manifest at ${home}/.config/chromium/NativeMessagingHosts/${MANIFEST}, where Chromium reads it`,
      `ok: it names com.steward.bridge and allows Steward (${ID})`,
      `ok: its launcher ${launcher} is there and executable`,
      `ok: the launcher runs ${process.execPath} --no-deprecation ${CLI}`,
      'ok: the host starts and answers (steward-bridge 0.1.0, protocol 1)',
    ]);
    expect(alone.browsers.map((b) => b.browser)).toEqual(['chrome', 'chromium']);
    expect(alone.steward).toMatchObject({ ok: false, text: `Steward is not connected: no host is listening on ${bridge}/bridge.sock` });
    expect(alone.ok).toBe(false);

    // With the browser's host running (as when Steward is connected), everything is ok.
    const { run } = await startHost(bridge);
    const connected = await checking();
    expect(connected.steward).toEqual({ ok: true, text: `Steward is connected: its host is listening on ${bridge}/bridge.sock` });
    expect(checksOf(connected).chrome?.at(-1)).toBe('ok: the host starts (the one the browser started is already serving Steward)');
    expect(connected.ok).toBe(true);
    run.child.stdin.end();
    await run.exited;

    const removed = uninstalling();
    expect(removed.ok && removed.removals.map((r) => `${r.verb} ${r.what}`)).toEqual([
      `removed ${home}/.config/google-chrome/NativeMessagingHosts/${MANIFEST}`,
      `removed ${home}/.config/chromium/NativeMessagingHosts/${MANIFEST}`,
      `removed ${launcher}`,
    ]);
    expect(filesUnder(home)).toEqual([]);
    expect(checksOf(await checking({ browsers: ['chromium'] })).chromium).toEqual([
      `problem: no host manifest at ${home}/.config/chromium/NativeMessagingHosts/${MANIFEST}, where Chromium reads it → steward-bridge install --browser chromium`,
    ]);
  });

  it('with XDG_CONFIG_HOME set, browsers (and the bridge home) are under it, not ~/.config', () => {
    const config = join(dir.path, 'cfg');
    useBrowsers(config, 'linux', []);
    mkdirSync(join(config, 'chromium'), { recursive: true });
    useBrowsers(home, 'linux', ['chrome']);
    const env = { XDG_CONFIG_HOME: config };
    const outcome = install({ user: { platform: 'linux', home, env }, browsers: 'all', home: bridgeHomePath(env, 'linux', home), givenIds: [], defaultIds: [ID], command });
    expect(outcome.ok && outcome.changes.map((c) => c.what)).toEqual([join(config, 'steward-bridge/host/steward-bridge-host'), join(config, 'chromium/NativeMessagingHosts', MANIFEST)]);
    expect(filesUnder(home)).toEqual([]);
  });
});

describe('a later install or uninstall for some browsers', { timeout: 60_000 }, () => {
  it('new extension ids reach every manifest this install wrote (the launcher is shared); uninstall --browser removes that one and keeps the launcher for the rest', async () => {
    useBrowsers(home, 'linux', ['chrome', 'chromium']);
    const { user, bridge, installing, checking } = setUp('linux');
    expect(installing().ok).toBe(true);
    const store = 'abcdefghijklmnopabcdefghijklmnop';
    const changed = installing({ browsers: ['chromium'], givenIds: [store, ID] });
    expect(changed.ok && changed.changes.map((c) => `${c.verb} ${c.browsers.join(',') || 'launcher'}`)).toEqual(['updated launcher', 'updated chromium', 'updated chrome']);
    for (const browser of ['chromium', 'google-chrome']) {
      expect(json(join(home, '.config', browser, 'NativeMessagingHosts', MANIFEST)).allowed_origins).toEqual([`chrome-extension://${store}/`, `chrome-extension://${ID}/`]);
    }

    const removed = uninstall({ user, home: bridge, browsers: ['chrome'] });
    expect(removed.ok && removed.removals.map((r) => `${r.verb} ${r.what}`)).toEqual([`removed ${home}/.config/google-chrome/NativeMessagingHosts/${MANIFEST}`]);
    expect(filesUnder(home)).toEqual([`.config/chromium/NativeMessagingHosts/${MANIFEST}`, '.config/steward-bridge/host/steward-bridge-host', '.config/steward-bridge/install.json']);
    // doctor checks what the record lists now, with the ids it was installed for.
    const report = await checking();
    expect(report.browsers.map((b) => [b.browser, b.checks.every((c) => c.ok)])).toEqual([['chromium', true]]);
  });
});

describe('on macOS', { timeout: 60_000 }, () => {
  it('installs into ~/Library/Application Support/<browser>/NativeMessagingHosts; a second install says updated and changes nothing else', async () => {
    useBrowsers(home, 'darwin', ['edge', 'brave']);
    const { installing, checking, uninstalling, bridge } = setUp('darwin');
    const first = installing({ browsers: ['edge', 'brave'] });
    expect(first.ok && first.changes.map((c) => c.verb)).toEqual(['wrote', 'wrote', 'wrote']);
    const files = filesUnder(home);
    expect(files).toEqual([
      `Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts/${MANIFEST}`,
      `Library/Application Support/Microsoft Edge/NativeMessagingHosts/${MANIFEST}`,
      'Library/Application Support/steward-bridge/host/steward-bridge-host',
      'Library/Application Support/steward-bridge/install.json',
    ]);
    const again = installing({ browsers: ['edge', 'brave'] });
    expect(again.ok && again.updated).toBe(true);
    expect(again.ok && again.changes.map((c) => c.verb)).toEqual(['updated', 'updated', 'updated']);
    expect(filesUnder(home)).toEqual(files);

    const report = await checking();
    expect(report.browsers.map((b) => [b.browser, b.checks.every((c) => c.ok)])).toEqual([
      ['edge', true],
      ['brave', true],
    ]);
    expect(json(join(home, `Library/Application Support/Microsoft Edge/NativeMessagingHosts/${MANIFEST}`)).path).toBe(join(bridge, 'host', 'steward-bridge-host'));

    expect(uninstalling().ok).toBe(true);
    expect(filesUnder(home)).toEqual([]);
  });
});

describe('on Windows', { timeout: 60_000 }, () => {
  it('writes the manifest and a .cmd launcher side by side in the bridge home and registers an HKCU key per browser with reg add; uninstall deletes exactly those keys', async () => {
    useBrowsers(home, 'win32', ['chrome', 'edge']);
    const reg = new FakeRegistry();
    const { installing, checking, uninstalling, bridge } = setUp('win32', reg);
    const manifest = join(bridge, 'host', MANIFEST);
    const launcher = join(bridge, 'host', 'steward-bridge-host.cmd');
    const chromeKey = 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.steward.bridge';
    const edgeKey = 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.steward.bridge';

    const outcome = installing();
    expect(outcome.ok && outcome.changes.map((c) => `${c.verb} ${c.what}`)).toEqual([`wrote ${launcher}`, `wrote ${manifest}`, `registered ${chromeKey}`, `registered ${edgeKey}`]);
    expect(reg.writes()).toEqual([
      ['add', chromeKey, '/ve', '/t', 'REG_SZ', '/d', manifest, '/f'],
      ['add', edgeKey, '/ve', '/t', 'REG_SZ', '/d', manifest, '/f'],
    ]);
    expect(filesUnder(bridge)).toEqual(['host/com.steward.bridge.json', 'host/steward-bridge-host.cmd', 'install.json']);
    expect(json(manifest)).toMatchObject({ path: launcher, allowed_origins: [`chrome-extension://${ID}/`] });
    expect(readFileSync(launcher, 'utf8')).toContain(`"${process.execPath}" "--no-deprecation" "${CLI}" host %*\r\n`);

    // doctor reads the keys and starts the .cmd as Chrome does (here the probe is recorded: no cmd.exe).
    const probed: string[][] = [];
    const hello = async (l: string, origin: string): Promise<HostProbe> => (probed.push([l, origin]), { kind: 'hello', version: '0.1.0', protocol: 1 });
    const report = await checking({ probeHost: hello });
    expect(checksOf(report).edge).toEqual([
      `ok: ${edgeKey} names the host manifest ${manifest}`,
      `ok: it names com.steward.bridge and allows Steward (${ID})`,
      `ok: its launcher ${launcher} is there`,
      `ok: the launcher runs ${process.execPath} --no-deprecation ${CLI}`,
      'ok: the host starts and answers (steward-bridge 0.1.0, protocol 1)',
    ]);
    expect(probed).toEqual([[launcher, `chrome-extension://${ID}/`]]);

    reg.calls.length = 0;
    const removed = uninstalling();
    expect(removed.ok && removed.removals.map((r) => `${r.verb} ${r.what}`)).toEqual([`removed ${chromeKey}`, `removed ${edgeKey}`, `removed ${launcher}`, `removed ${manifest}`]);
    expect(reg.writes()).toEqual([
      ['delete', chromeKey, '/f'],
      ['delete', edgeKey, '/f'],
    ]);
    expect(reg.values.size).toBe(0);
    expect(filesUnder(home)).toEqual([]);
  });

  it('a reg add refused half-way undoes everything written before it, and says so in one sentence', () => {
    useBrowsers(home, 'win32', ['chrome', 'edge']);
    const reg = new FakeRegistry();
    reg.refuse = (args) => args[0] === 'add' && args[1]!.includes('Microsoft\\Edge');
    const { installing, bridge } = setUp('win32', reg);
    const outcome = installing();
    expect(outcome).toEqual({
      ok: false,
      problem: "Could not install Steward's host: reg add HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.steward.bridge failed: ERROR: Access is denied.. Nothing was changed.",
    });
    expect(reg.values.size).toBe(0);
    expect(reg.writes().at(-1)).toEqual(['delete', 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.steward.bridge', '/f']);
    expect(existsSync(bridge)).toBe(false);
    expect(filesUnder(home)).toEqual([]);
  });

  it('uninstall keeps a key that another program pointed elsewhere', () => {
    useBrowsers(home, 'win32', ['chrome']);
    const reg = new FakeRegistry();
    const { installing, uninstalling } = setUp('win32', reg);
    expect(installing().ok).toBe(true);
    const chromeKey = 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.steward.bridge';
    reg.values.set(chromeKey, 'C:\\Other\\com.steward.bridge.json');
    const removed = uninstalling();
    expect(removed.ok && removed.removals[0]).toEqual({ verb: 'kept', what: chromeKey, why: "it names C:\\Other\\com.steward.bridge.json, not this install's manifest" });
    expect(reg.values.get(chromeKey)).toBe('C:\\Other\\com.steward.bridge.json');
  });
});

describe('what is not ours is left alone', { timeout: 60_000 }, () => {
  it('uninstall keeps a manifest another program wrote over ours, and install refuses to overwrite a file that is not a host manifest', () => {
    useBrowsers(home, 'linux', ['chrome', 'chromium']);
    const { installing, uninstalling } = setUp('linux');
    expect(installing().ok).toBe(true);
    const chrome = join(home, '.config/google-chrome/NativeMessagingHosts', MANIFEST);
    const theirs = JSON.stringify({ name: 'com.steward.bridge', path: '/opt/other/host', type: 'stdio', allowed_origins: [] });
    writeFileSync(chrome, theirs);
    const removed = uninstalling();
    expect(removed.ok && removed.removals.map((r) => `${r.verb} ${r.what}${r.why ? `: ${r.why}` : ''}`)).toContain(
      `kept ${chrome}: it names the launcher /opt/other/host, not this install's (${home}/.config/steward-bridge/host/steward-bridge-host)`,
    );
    expect(readFileSync(chrome, 'utf8')).toBe(theirs);

    writeFileSync(chrome, 'notes, not JSON');
    const refused = installing({ browsers: ['chromium', 'chrome'] });
    expect(refused).toEqual({
      ok: false,
      problem: `${chrome} already exists and is not valid JSON: it is not a manifest steward-bridge wrote, so it is left alone (move it away, then install again). Nothing was changed.`,
    });
    expect(existsSync(join(home, '.config/chromium/NativeMessagingHosts', MANIFEST))).toBe(false);
  });

  it('an install record that does not fit its schema is not trusted: uninstall finds the manifests that name this home’s launcher instead', () => {
    useBrowsers(home, 'linux', ['chromium']);
    const { installing, uninstalling, bridge } = setUp('linux');
    expect(installing().ok).toBe(true);
    writeFileSync(join(bridge, 'install.json'), JSON.stringify({ version: 1, launcher: '/etc/passwd', targets: 'everything' }));
    const removed = uninstalling();
    expect(removed.ok && removed.note).toMatch(/^The install record is unreadable \(.*install\.json does not fit the install record/);
    expect(removed.ok && removed.removals.map((r) => r.what)).toEqual([join(home, '.config/chromium/NativeMessagingHosts', MANIFEST), join(bridge, 'host', 'steward-bridge-host')]);
    expect(existsSync('/etc/passwd')).toBe(true);
  });
});
