import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

  it('bakes in the extension ids it is given (one manifest for Steward unpacked and from the Web Store); the host runs for each and no other', async () => {
    const store = 'abcdefghijklmnopabcdefghijklmnop';
    const userDataDir = join(dir.path, 'p');
    const home = join(dir.path, 'h');
    expect((await runCli(['install', '--user-data-dir', userDataDir, '--home', home, '--extension-id', store, '--extension-id', ID])).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(userDataDir, 'NativeMessagingHosts', 'com.steward.bridge.json'), 'utf8')) as { allowed_origins: string[] };
    expect(manifest.allowed_origins).toEqual([`chrome-extension://${store}/`, `chrome-extension://${ID}/`]);
    const launcher = join(home, 'host', 'steward-bridge-host');
    expect(readFileSync(launcher, 'utf8')).toContain(`STEWARD_EXTENSION_ID='${store},${ID}'`);

    const env = { STEWARD_BRIDGE_HOME: '', STEWARD_EXTENSION_ID: '' };
    for (const id of [store, ID]) {
      const run = startCli([`chrome-extension://${id}/`], env, [launcher]);
      expect(await new FakeExtension(run).next('hello')).toMatchObject({ kind: 'hello' });
      run.child.stdin.end();
      expect((await run.exited).code).toBe(0);
    }
    const other = startCli(['chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/'], env, [launcher]);
    expect((await other.exited).code).toBe(1);
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
});
