import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manifestDirs } from '../../../bridge/src/install/manifest-dirs.ts';
import { CLI, FakeExtension, runCli, startCli, STEWARD_ORIGIN, tempDir, until } from './cli-process.ts';

const mode = (path: string) => statSync(path).mode & 0o777;
const ID = 'iodcoaibgikagkbaifmcklmipgpmmcip';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

describe('steward-bridge install / uninstall', { timeout: 60_000 }, () => {
  it('writes the host manifest into <user-data-dir>/NativeMessagingHosts and a 0700 launcher into the 0700 home', async () => {
    const userDataDir = join(dir.path, 'profile');
    const home = join(dir.path, 'home');
    const result = await runCli(['install', '--user-data-dir', userDataDir, '--home', home]);
    expect(result.code).toBe(0);

    const launcher = join(home, 'host', 'steward-bridge-host');
    const manifestPath = join(userDataDir, 'NativeMessagingHosts', 'com.steward.bridge.json');
    expect(result.stdout).toContain(`wrote ${launcher}`);
    expect(result.stdout).toContain(`wrote ${manifestPath}`);

    expect(JSON.parse(readFileSync(manifestPath, 'utf8'))).toEqual({
      name: 'com.steward.bridge',
      description: expect.any(String),
      path: launcher,
      type: 'stdio',
      allowed_origins: [`chrome-extension://${ID}/`],
    });
    expect(mode(home)).toBe(0o700);
    expect(mode(join(home, 'host'))).toBe(0o700);
    expect(mode(launcher)).toBe(0o700);

    const script = readFileSync(launcher, 'utf8');
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(script).toContain(`STEWARD_BRIDGE_HOME='${home}'`);
    expect(script).toContain(`STEWARD_EXTENSION_ID='${ID}'`);
    expect(script).toMatch(new RegExp(`^exec '${process.execPath}' .*'${CLI}' host "\\$@"$`, 'm'));
  });

  it('the launcher it writes is a working host: it runs for Steward with the baked-in home, and refuses another origin', async () => {
    const userDataDir = join(dir.path, 'p');
    const home = join(dir.path, 'h');
    expect((await runCli(['install', '--user-data-dir', userDataDir, '--home', home])).code).toBe(0);
    const launcher = join(home, 'host', 'steward-bridge-host');

    // Started as Chrome starts it: the launcher alone, the origin as its argument, no env of ours.
    const env = { ...process.env, STEWARD_BRIDGE_HOME: '', STEWARD_EXTENSION_ID: '' };
    const refused = spawn(launcher, ['chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let refusal = '';
    refused.stderr.on('data', (c: Buffer) => (refusal += c.toString()));
    expect(await new Promise((done) => refused.on('exit', done))).toBe(1);
    expect(refusal).toMatch(/refusing to run/);

    const run = startCli([STEWARD_ORIGIN], env, [launcher]);
    const extension = new FakeExtension(run);
    expect(await extension.next('hello')).toMatchObject({ kind: 'hello', protocol: 1 });
    await until(() => existsSync(join(home, 'bridge.sock')), 'the socket in the baked-in home');
    run.child.stdin.end();
    expect((await run.exited).code).toBe(0);
    expect(existsSync(join(home, 'bridge.sock'))).toBe(false);
  });

  it('bakes in the extension id it is given, and refuses one that is not an id', async () => {
    const other = 'abcdefghijklmnopabcdefghijklmnop';
    const userDataDir = join(dir.path, 'p');
    const home = join(dir.path, 'h');
    expect((await runCli(['install', '--user-data-dir', userDataDir, '--home', home, '--extension-id', other])).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(userDataDir, 'NativeMessagingHosts', 'com.steward.bridge.json'), 'utf8')) as { allowed_origins: string[] };
    expect(manifest.allowed_origins).toEqual([`chrome-extension://${other}/`]);
    expect(readFileSync(join(home, 'host', 'steward-bridge-host'), 'utf8')).toContain(`STEWARD_EXTENSION_ID='${other}'`);

    const bad = await runCli(['install', '--user-data-dir', userDataDir, '--home', home, '--extension-id', 'https://evil/']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/not an extension id/);
  });

  it('uninstall removes the manifest and the launcher, and says so', async () => {
    const args = ['--user-data-dir', join(dir.path, 'p'), '--home', join(dir.path, 'h')];
    await runCli(['install', ...args]);
    const removed = await runCli(['uninstall', ...args]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(/removed .*com\.steward\.bridge\.json/);
    expect(removed.stdout).toMatch(/removed .*steward-bridge-host/);
    expect(existsSync(join(dir.path, 'p', 'NativeMessagingHosts', 'com.steward.bridge.json'))).toBe(false);
    expect(existsSync(join(dir.path, 'h', 'host', 'steward-bridge-host'))).toBe(false);
    expect((await runCli(['uninstall', ...args])).stdout).toMatch(/Nothing to remove/);
  });

  it('without --user-data-dir, writes into the user-level Chromium and Chrome dirs', async () => {
    const config = join(dir.path, 'config');
    const result = await runCli(['install', '--home', join(dir.path, 'h')], { XDG_CONFIG_HOME: config });
    expect(result.code).toBe(0);
    for (const browser of ['chromium', 'google-chrome']) expect(existsSync(join(config, browser, 'NativeMessagingHosts', 'com.steward.bridge.json'))).toBe(true);
  });
});

describe('where the host manifest goes', () => {
  it('Linux: ~/.config/chromium and ~/.config/google-chrome (XDG_CONFIG_HOME respected), or one of them', () => {
    expect(manifestDirs({ platform: 'linux', home: '/home/u', env: {} })).toEqual(['/home/u/.config/chromium/NativeMessagingHosts', '/home/u/.config/google-chrome/NativeMessagingHosts']);
    expect(manifestDirs({ platform: 'linux', home: '/home/u', env: { XDG_CONFIG_HOME: '/x' }, browser: 'chrome' })).toEqual(['/x/google-chrome/NativeMessagingHosts']);
  });

  it('macOS: ~/Library/Application Support/Chromium and Google/Chrome; Windows: not a file (null)', () => {
    expect(manifestDirs({ platform: 'darwin', home: '/Users/u' })).toEqual([
      '/Users/u/Library/Application Support/Chromium/NativeMessagingHosts',
      '/Users/u/Library/Application Support/Google/Chrome/NativeMessagingHosts',
    ]);
    expect(manifestDirs({ platform: 'win32', home: 'C:\\Users\\u' })).toBeNull();
    expect(manifestDirs({ platform: 'win32', userDataDir: '/p' })).toEqual(['/p/NativeMessagingHosts']);
  });
});
