import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bridgeHomePath, socketPath } from '../../../bridge/src/paths.ts';
import { runCli, startHost, tempDir } from './cli-process.ts';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

describe('the steward-bridge command line', { timeout: 60_000 }, () => {
  it('--help prints the commands on stdout', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['serve', 'serve --http', 'install', 'uninstall', 'http-token', 'status', 'host <origin>']) expect(result.stdout).toContain(`steward-bridge ${command}`);
  });

  it('an unknown command or option prints the usage on stderr and exits 2, with nothing on stdout', async () => {
    for (const args of [['frobnicate'], ['install', '--bogus'], ['serve', '--port', 'eighty'], ['install', '--browser', 'firefox']]) {
      const result = await runCli(args, { STEWARD_BRIDGE_HOME: dir.path });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('Usage:');
    }
  });

  it('status says whether a host listens on the socket (exit 0) or not (exit 1)', async () => {
    const home = join(dir.path, 'home');
    const away = await runCli(['status', '--home', home]);
    expect(away.code).toBe(1);
    expect(away.stdout).toMatch(/No host is listening on .*bridge\.sock/);

    const { run } = await startHost(home);
    const here = await runCli(['status'], { STEWARD_BRIDGE_HOME: home });
    expect(here.code).toBe(0);
    expect(here.stdout).toMatch(/listening on .*bridge\.sock/);
    run.child.stdin.end();
    await run.exited;
  });
});

describe('the bridge home', { timeout: 60_000 }, () => {
  it('is STEWARD_BRIDGE_HOME, else $XDG_CONFIG_HOME/steward-bridge, else ~/.config/steward-bridge; ~/Library/Application Support on macOS', () => {
    expect(bridgeHomePath({ STEWARD_BRIDGE_HOME: '/h' }, 'linux', '/home/u')).toBe('/h');
    expect(bridgeHomePath({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/u')).toBe('/x/steward-bridge');
    expect(bridgeHomePath({}, 'linux', '/home/u')).toBe('/home/u/.config/steward-bridge');
    expect(bridgeHomePath({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/steward-bridge');
  });

  it('is created 0700 by any command, and a home whose socket path is too long is refused clearly', async () => {
    const home = join(dir.path, 'fresh');
    await runCli(['status', '--home', home]);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(() => socketPath(`/tmp/${'d'.repeat(100)}`)).toThrow(/longer than the 107 bytes.*STEWARD_BRIDGE_HOME/);
    const result = await runCli(['status', '--home', join(dir.path, 'x'.repeat(110))]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/longer than the 107 bytes/);
  });
});
