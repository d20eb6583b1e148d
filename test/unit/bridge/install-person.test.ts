import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../bridge/src/doctor/doctor.ts';
import { CLI, runCli, tempDir } from './cli-process.ts';
import { filesUnder, makeUnwritable, useBrowsers } from './install-homes.ts';

/**
 * The CLI as a person runs it: only HOME says whose browsers these are (no --home, no
 * --user-data-dir, no XDG_CONFIG_HOME or STEWARD_BRIDGE_HOME), and every bad input is one
 * sentence, a non-zero exit and nothing written.
 */

const MANIFEST = 'com.steward.bridge.json';

let dir: ReturnType<typeof tempDir>;
let home: string;
let env: Record<string, string>;
let undo: Array<() => void>;
beforeEach(() => {
  dir = tempDir();
  home = join(dir.path, 'ann');
  mkdirSync(home);
  env = { HOME: home, XDG_CONFIG_HOME: '', STEWARD_BRIDGE_HOME: '', STEWARD_EXTENSION_ID: '' };
  undo = [];
});
afterEach(() => {
  for (const u of undo) u();
  dir.remove();
});

const cli = (args: string[], command?: string[]) => runCli(args, env, command);
const bridgeHome = () => join(home, '.config', 'steward-bridge');
const launcher = () => join(bridgeHome(), 'host', 'steward-bridge-host');

/** A failure as the person sees it: exit 1, nothing on stdout, one sentence on stderr. */
function expectOneSentence(result: { code: number | null; stdout: string; stderr: string }, sentence: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^steward-bridge: [A-Z"].*\.$/);
  expect(lines[0]).toMatch(sentence);
}

describe('steward-bridge install for the person whose HOME this is', { timeout: 120_000 }, () => {
  it('puts the manifest where Chromium reads it under HOME (not inside the bridge home), the launcher and record in the bridge home', async () => {
    useBrowsers(home, 'linux', ['chromium']);
    const result = await cli(['install', '--browser', 'chromium']);
    expect(result.code, result.stderr).toBe(0);
    expect(filesUnder(home)).toEqual([`.config/chromium/NativeMessagingHosts/${MANIFEST}`, '.config/steward-bridge/host/steward-bridge-host', '.config/steward-bridge/install.json']);
    expect(result.stdout.split('\n')).toEqual([
      `wrote ${launcher()}`,
      `wrote ${home}/.config/chromium/NativeMessagingHosts/${MANIFEST} (Chromium)`,
      expect.stringMatching(/^Steward's native-messaging host is installed for Chromium, for extension id iodcoaibgikagkbaifmcklmipgpmmcip; .*steward-bridge doctor$/),
      '',
    ]);

    const again = await cli(['install', '--browser', 'chromium']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`updated ${home}/.config/chromium/NativeMessagingHosts/${MANIFEST} (Chromium)`);
    expect(again.stdout).toContain('(updated in place)');
    expect(filesUnder(home)).toHaveLength(3);
  });

  it('--browser all (the default) installs for every browser the person has used and says which it skipped; none is an error', async () => {
    expectOneSentence(await cli(['install']), /^steward-bridge: No Chromium-based browser has been used by this user yet/);
    expect(existsSync(bridgeHome())).toBe(false);

    useBrowsers(home, 'linux', ['chrome', 'brave']);
    const result = await cli(['install']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`wrote ${home}/.config/google-chrome/NativeMessagingHosts/${MANIFEST} (Google Chrome)`);
    expect(result.stdout).toContain(`wrote ${home}/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/${MANIFEST} (Brave)`);
    expect(result.stdout).toContain('skipped Google Chrome Beta, Google Chrome Dev, Google Chrome Canary, Chromium, Microsoft Edge: not used by this user yet (no user data dir)');
  });

  it('runs the host with the Node that ran install, even from a path with spaces, and doctor starts it', async () => {
    // A Node whose own path has spaces (process.execPath is the resolved binary, so a copy, not a link).
    const node = join(dir.path, 'Program Files', 'node js', 'node');
    mkdirSync(join(node, '..'), { recursive: true });
    copyFileSync(process.execPath, node);
    home = join(dir.path, 'Ann Smith');
    env.HOME = home;
    useBrowsers(home, 'linux', ['chromium']);
    // A flag of that Node's own goes into the launcher too.
    const withNode = [node, '--no-deprecation', CLI];

    expect((await cli(['install', '--browser', 'chromium'], withNode)).code).toBe(0);
    const script = readFileSync(launcher(), 'utf8');
    expect(script).toContain(`exec '${node}' '--no-deprecation' '${CLI}' host "$@"`);
    expect(script).toContain(`STEWARD_BRIDGE_HOME='${bridgeHome()}'`);

    const doctor = await cli(['doctor', '--json'], withNode);
    const report = JSON.parse(doctor.stdout) as DoctorReport;
    expect(report.browsers[0]!.checks.map((c) => [c.ok, c.text])).toContainEqual([true, 'the host starts and answers (steward-bridge 0.1.0, protocol 1)']);
    expect(report.browsers[0]!.checks.every((c) => c.ok)).toBe(true);
  });

  it('a manifest whose launcher was deleted: doctor names the problem and the command that fixes it; that command repairs it', async () => {
    useBrowsers(home, 'linux', ['chromium']);
    expect((await cli(['install', '--browser', 'chromium'])).code).toBe(0);
    rmSync(launcher());

    const sick = await cli(['doctor']);
    expect(sick.code).toBe(1);
    expect(sick.stdout).toContain(`  problem  the launcher it names, ${launcher()}, is missing\n           fix: steward-bridge install --browser chromium\n`);
    expect(sick.stdout).toContain('problems found.');

    const fix = /fix: steward-bridge (install .*)/.exec(sick.stdout)![1]!.split(' ');
    expect((await cli(fix)).code).toBe(0);
    const healed = JSON.parse((await cli(['doctor', '--json'])).stdout) as DoctorReport;
    expect(healed.browsers.flatMap((b) => b.checks).every((c) => c.ok)).toBe(true);
    // The browser is not running here: that one problem stays, with what to do.
    expect(healed.steward).toMatchObject({ ok: false, fix: expect.stringContaining('open Chromium with Steward') });
    expect(healed.ok).toBe(false);
  });

  it('doctor with the wrong extension id says which id the manifest allows and how to add Steward’s', async () => {
    useBrowsers(home, 'linux', ['chromium']);
    expect((await cli(['install', '--browser', 'chromium'])).code).toBe(0);
    const store = 'abcdefghijklmnopabcdefghijklmnop';
    const result = await cli(['doctor', '--extension-id', store]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `  problem  it allows iodcoaibgikagkbaifmcklmipgpmmcip, not Steward's ${store}\n           fix: steward-bridge install --browser chromium --extension-id ${store}\n`,
    );
  });

  it('after uninstall, doctor reports the missing manifest', async () => {
    useBrowsers(home, 'linux', ['chromium']);
    await cli(['install']);
    const removed = await cli(['uninstall']);
    expect(removed.stdout).toContain(`removed ${home}/.config/chromium/NativeMessagingHosts/${MANIFEST}`);
    expect(filesUnder(home)).toEqual([]);
    const result = await cli(['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`Chromium (${home}/.config/chromium/NativeMessagingHosts/${MANIFEST})\n  problem  no host manifest at`);
  });
});

describe('bad input: one sentence, a non-zero exit, nothing written', { timeout: 120_000 }, () => {
  it('an unknown browser, or --browser without a name, is a usage error (exit 2)', async () => {
    useBrowsers(home, 'linux', ['chromium']);
    for (const args of [
      ['install', '--browser', 'firefox'],
      ['install', '--browser'],
      ['doctor', '--browser', 'safari'],
    ]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0]).toMatch(
        args[2] ? /^steward-bridge: --browser must be one of chrome, chrome-beta, chrome-dev, chrome-canary, chromium, edge, brave, all, not "\w+"\.$/ : /--browser/,
      );
    }
    expect(filesUnder(home)).toEqual([]);
  });

  it('a browser the person does not have', async () => {
    useBrowsers(home, 'linux', ['chromium']);
    expectOneSentence(await cli(['install', '--browser', 'chromium', '--browser', 'edge']), /Microsoft Edge has no user data dir at .*\/\.config\/microsoft-edge, so it is not installed/);
    expect(filesUnder(home)).toEqual([]);
  });

  it('an extension id that is not 32 letters a–p', async () => {
    useBrowsers(home, 'linux', ['chromium']);
    expectOneSentence(await cli(['install', '--extension-id', 'https://evil.example/']), /^steward-bridge: "https:\/\/evil\.example\/" is not an extension id: an id is 32 letters a–p/);
    expectOneSentence(await cli(['doctor', '--extension-id', 'short']), /^steward-bridge: "short" is not an extension id/);
    expect(filesUnder(home)).toEqual([]);
  });

  it('a browser dir that cannot be written: nothing is written anywhere, not even for the browsers that could be', async (context) => {
    useBrowsers(home, 'linux', ['chromium', 'chrome']);
    const locked = makeUnwritable(join(home, '.config', 'google-chrome'));
    if (!locked) return context.skip('neither a file mode nor chattr can make a dir unwritable here');
    undo.push(locked);
    expectOneSentence(
      await cli(['install']),
      /^steward-bridge: Cannot write into .*\/google-chrome\/NativeMessagingHosts: .*\/google-chrome is not writable by this user \(E\w+\)\. Nothing was changed\.$/,
    );
    expect(filesUnder(home)).toEqual([]);
    expect(existsSync(bridgeHome())).toBe(false);
  });
});
