// The bridge as npm publishes it: `npm pack` of bridge/ (which builds it) and that tarball installed
// into an empty folder as a person installs it (the npm cache, then the registry; with no registry,
// `npm ci --offline` from the cache the repository's `npm ci` filled). Used by `npm run
// test:bridge-pack` and by the e2e test that follows the README from the packages alone.
import { mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { offlineLock } from './bridge-pack-offline-lock.ts';

const ROOT = resolve(import.meta.dirname, '..');
const BRIDGE = join(ROOT, 'bridge');
/** npm errors that mean "no registry", after which the install is tried from the cache alone. */
const NO_NETWORK = /\b(ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET|ENETUNREACH|EHOSTUNREACH|ENOTCACHED)\b/;

export interface Manifest {
  name: string;
  version: string;
  bin?: Record<string, string>;
  license?: string;
  engines?: Record<string, string>;
  files?: string[];
  repository?: unknown;
  homepage?: string;
  dependencies?: Record<string, string>;
}

/**
 * The environment for the npm we start: without what `npm run` exported for this repository (its
 * prefix, package and lifecycle), which would point npm back at the workspace; the person's own
 * cache and registry settings stay.
 */
function npmEnv(): NodeJS.ProcessEnv {
  const keep = new Set(['cache', 'registry', 'userconfig', 'globalconfig', 'proxy', 'https_proxy', 'noproxy', 'cafile', 'strict_ssl'].map((name) => `npm_config_${name}`));
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^npm_(config|package|lifecycle)_/i.test(key) && !keep.has(key.toLowerCase())) delete env[key];
  delete env.INIT_CWD;
  return env;
}

function npm(args: string[], cwd: string): { ok: boolean; stdout: string; stderr: string } {
  const run = spawnSync('npm', args, { cwd, env: npmEnv(), encoding: 'utf8', timeout: 120_000 });
  return { ok: run.status === 0, stdout: run.stdout ?? '', stderr: `${run.stderr ?? ''}${run.error ? String(run.error) : ''}` };
}

export function packBridge(dir: string): { tarball: string; integrity: string } {
  const run = npm(['pack', '--pack-destination', dir, '--json'], BRIDGE);
  if (!run.ok) throw new Error(`npm pack failed:\n${run.stderr.slice(-3000)}`);
  // The prepack build's log comes first on stdout; the JSON array is last.
  const start = /^\[\s*\{/m.exec(run.stdout);
  if (!start) throw new Error(`npm pack printed no JSON:\n${run.stdout.slice(-2000)}`);
  const [packed] = JSON.parse(run.stdout.slice(start.index)) as Array<{ filename: string; integrity: string }>;
  return { tarball: join(dir, packed!.filename), integrity: packed!.integrity };
}

/** The tarball installed into `app` (a new folder); returns how (registry or cache). */
export function installPacked(app: string, tarball: string, packed: { integrity: string; manifest: Manifest }, offlineOnly: boolean): string {
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'bridge-pack-check', version: '0.0.0', private: true })}\n`);
  const online = offlineOnly ? { ok: false, stderr: 'ENOTCACHED' } : npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--fetch-retries=0', '--fetch-timeout=15000', tarball], app);
  if (online.ok) return 'npm install --prefer-offline (npm cache, then the registry)';
  if (!NO_NETWORK.test(online.stderr)) throw new Error(`npm install of the tarball failed:\n${online.stderr.slice(-3000)}`);
  // No registry: the dependencies at the versions package-lock.json pinned, from the npm cache.
  const relative = `../${tarball.split('/').pop()!}`;
  const { packageJson, lock } = offlineLock(ROOT, 'bridge', {
    name: packed.manifest.name,
    version: packed.manifest.version,
    tarball: relative,
    integrity: packed.integrity,
    manifest: packed.manifest,
  });
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  writeFileSync(join(app, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  const why = offlineOnly ? 'as --offline asked' : `the registry was not reachable: ${NO_NETWORK.exec(online.stderr)![1]}`;
  const offline = npm(['ci', '--offline', '--no-audit', '--no-fund'], app);
  if (!offline.ok) throw new Error(`npm ci --offline from the npm cache failed (${why}):\n${offline.stderr.slice(-3000)}`);
  return `npm ci --offline from the npm cache, ${why}`;
}

/** The package.json inside a packed tarball. */
export const packedManifest = (tarball: string): Manifest => JSON.parse(execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Manifest;
