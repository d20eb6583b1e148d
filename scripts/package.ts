// `npm run package`: the production build in dist/ (no test hooks, no source maps), zipped as
// steward-<version>.zip at the repository root, the folder a person unzips and loads with
// chrome://extensions → Load unpacked. `npm run package -- --store` writes steward-<version>-store.zip
// instead: the same files without the manifest `key`, as the Chrome Web Store wants them (the
// store assigns its own id). Each archive is read back and checked before it is kept (package-check.ts).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { packageProblems } from './package-check.ts';
import { createZip, readZip, type ZipEntry } from './zip.ts';

const ROOT = join(import.meta.dirname, '..');

export const packageVersion = (): string => (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The production build: the test hooks are compiled out unless STEWARD_TEST_HOOKS=1, which this clears. */
export async function buildProduction(outDir: string): Promise<void> {
  delete process.env.STEWARD_TEST_HOOKS;
  await build({ configFile: join(ROOT, 'vite.config.ts'), root: ROOT, build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
}

/** The archive's entries: every file of `dir`, sorted; for the store, manifest.json without its `key`. */
export function packageEntries(dir: string, store: boolean): ZipEntry[] {
  const names = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) =>
      join(d.parentPath, d.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
  return names.map((name) => {
    const data = readFileSync(join(dir, name));
    if (name !== 'manifest.json' || !store) return { name, data };
    const { key: _key, ...manifest } = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
    return { name, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) };
  });
}

/** Zips `dir` to `zipPath`, reads the archive back and checks it; a bad archive is deleted and the problems thrown. */
export function writePackage(dir: string, zipPath: string, store: boolean): void {
  writeFileSync(zipPath, createZip(packageEntries(dir, store)));
  const problems = packageProblems(readZip(readFileSync(zipPath)), { version: packageVersion(), store });
  if (problems.length > 0) {
    rmSync(zipPath, { force: true });
    throw new Error(`${zipPath} is not a good package:\n- ${problems.join('\n- ')}`);
  }
}

export const packageName = (store: boolean): string => `steward-${packageVersion()}${store ? '-store' : ''}.zip`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const store = process.argv.includes('--store');
  const dist = join(ROOT, 'dist');
  await buildProduction(dist);
  const zipPath = join(ROOT, packageName(store));
  writePackage(dist, zipPath, store);
  console.log(
    store
      ? `Wrote ${packageName(store)} for the Chrome Web Store (no key: the store gives Steward its own id).`
      : `Wrote ${packageName(store)}: unzip it and load the folder with chrome://extensions → Load unpacked (dist/ holds the same files).`,
  );
}
