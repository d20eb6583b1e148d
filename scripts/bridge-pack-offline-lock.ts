import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A package-lock.json for an empty folder that depends on the packed bridge alone, with the
 * bridge's dependencies at the versions the repository's lockfile pinned: `npm ci --offline` then
 * installs the tarball from the npm cache that the repository's `npm ci` filled, with no registry.
 * (`npm ci` caches tarballs by integrity, not the registry's package documents, so a plain
 * `npm install <tgz> --offline` could not resolve the dependencies.)
 */

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

interface PackedBridge {
  name: string;
  version: string;
  /** The tarball's path relative to the folder being installed (`file:` spec). */
  tarball: string;
  integrity: string;
  manifest: { dependencies?: Record<string, string>; bin?: Record<string, string>; license?: string; engines?: Record<string, string> };
}

/** The lock path `name` resolves to from `from`, as Node would look: its own node_modules, then each parent's. */
function resolveFrom(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (base === '') return undefined;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

export function offlineLock(root: string, workspace: string, bridge: PackedBridge): { packageJson: object; lock: object } {
  const rootLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const packages = rootLock.packages;
  // Where the workspace's packages land in the new tree: under the installed bridge.
  const relocate = (path: string) => (path.startsWith(`${workspace}/`) ? `node_modules/${bridge.name}/${path.slice(workspace.length + 1)}` : path);

  const out: Record<string, LockEntry> = {};
  const queue: Array<{ from: string; deps: Record<string, string>; optional: (name: string) => boolean }> = [{ from: workspace, deps: bridge.manifest.dependencies ?? {}, optional: () => false }];
  while (queue.length > 0) {
    const { from, deps, optional } = queue.shift()!;
    for (const name of Object.keys(deps)) {
      const found = resolveFrom(packages, from, name);
      if (!found) {
        if (optional(name)) continue;
        throw new Error(`package-lock.json has no ${name} for ${from || 'the root'}: run npm install, or check the bridge's dependencies.`);
      }
      const target = relocate(found);
      if (out[target]) continue;
      const entry = packages[found]!;
      if (entry.link) throw new Error(`${name} is a workspace link in package-lock.json; the packed bridge cannot depend on it.`);
      const { dev: _dev, devOptional: _devOptional, peer: _peer, ...kept } = entry;
      out[target] = kept;
      const meta = entry.peerDependenciesMeta ?? {};
      queue.push({ from: found, deps: entry.dependencies ?? {}, optional: () => false });
      queue.push({ from: found, deps: entry.optionalDependencies ?? {}, optional: () => true });
      queue.push({ from: found, deps: entry.peerDependencies ?? {}, optional: (n) => meta[n]?.optional === true });
    }
  }

  const spec = `file:${bridge.tarball}`;
  const packageJson = { name: 'bridge-pack-check', version: '0.0.0', private: true, dependencies: { [bridge.name]: spec } };
  const lock = {
    name: packageJson.name,
    version: packageJson.version,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: packageJson.name, version: packageJson.version, dependencies: packageJson.dependencies },
      [`node_modules/${bridge.name}`]: {
        version: bridge.version,
        resolved: spec,
        integrity: bridge.integrity,
        license: bridge.manifest.license,
        dependencies: bridge.manifest.dependencies,
        bin: bridge.manifest.bin,
        engines: bridge.manifest.engines,
      },
      ...out,
    },
  };
  return { packageJson, lock };
}
