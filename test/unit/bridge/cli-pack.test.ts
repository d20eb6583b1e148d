import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeExtension, ROOT, startCli, STEWARD_ORIGIN, tempDir } from './cli-process.ts';

/**
 * `npm pack -w bridge`, unpacked as an install would place it. Its prepack build is skipped: the
 * global setup built bridge/dist already, and building again would empty bridge/dist while other
 * test files run the CLI from it (`npm run test:bridge-pack` packs with the build).
 */
let dir: ReturnType<typeof tempDir>;
let files: string[];
let bin: string;

beforeAll(() => {
  dir = tempDir();
  const out = execFileSync('npm', ['pack', '-w', 'bridge', '--ignore-scripts', '--pack-destination', dir.path, '--json'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // npm may print a lifecycle script's log on stdout before its JSON array.
  const json = /^\[\s*\{/m.exec(out);
  if (!json) throw new Error(`npm pack printed no JSON: ${out.slice(-2000)}`);
  const [packed] = JSON.parse(out.slice(json.index)) as Array<{ filename: string }>;
  const tarball = join(dir.path, packed!.filename);
  files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
  execFileSync('tar', ['-xzf', tarball, '-C', dir.path]);
  // Its dependencies, where npm would put them: the bridge's own, then the hoisted ones above.
  symlinkSync(join(ROOT, 'bridge', 'node_modules'), join(dir.path, 'package', 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir.path, 'node_modules'));
  bin = join(dir.path, 'package', 'bin', 'steward-bridge.js');
}, 180_000);
afterAll(() => dir?.remove());

describe('the npm package', { timeout: 60_000 }, () => {
  it('holds bin/, dist/, package.json, README.md and LICENSE, and nothing else', () => {
    expect(files).toEqual(['package/LICENSE', 'package/README.md', 'package/bin/steward-bridge.js', 'package/dist/cli.js', 'package/package.json']);
    const manifest = JSON.parse(readFileSync(join(dir.path, 'package', 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(manifest.bin).toEqual({ 'steward-bridge': 'bin/steward-bridge.js' });
  });

  it('its bin runs from the unpacked tarball', () => {
    const help = execFileSync(bin, ['--help'], { encoding: 'utf8' });
    expect(help).toContain('steward-bridge install');
  });

  it('installed from the tarball, the launcher runs the tarball’s host for Steward', async () => {
    const home = join(dir.path, 'h');
    const profile = join(dir.path, 'p');
    mkdirSync(profile);
    const printed = execFileSync(bin, ['install', '--user-data-dir', profile, '--home', home], { encoding: 'utf8' });
    const launcher = join(home, 'host', 'steward-bridge-host');
    expect(printed).toContain(`wrote ${launcher}`);
    expect(readFileSync(launcher, 'utf8')).toContain(`'${bin}' host "$@"`);

    const run = startCli([STEWARD_ORIGIN], { STEWARD_BRIDGE_HOME: '', STEWARD_EXTENSION_ID: '' }, [launcher]);
    const extension = new FakeExtension(run);
    expect(await extension.next('hello')).toEqual({ kind: 'hello', host_version: '0.1.0', protocol: 1 });
    run.child.stdin.end();
    expect((await run.exited).code).toBe(0);
  });
});
