// `npm run test:package`: builds the production extension into a temporary folder (dist/, perhaps
// a test build, is left as it is), zips it both ways (Load unpacked, and the store's without `key`),
// reads each archive back and checks it (package-check.ts: version, no source maps, no test hooks,
// no install-time host access, every file the manifest names present).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProduction, packageName, writePackage } from './package.ts';

const work = mkdtempSync(join(tmpdir(), 'steward-package-'));
try {
  const dist = join(work, 'dist');
  await buildProduction(dist);
  for (const store of [false, true]) {
    writePackage(dist, join(work, packageName(store)), store);
    console.log(`${packageName(store)}: a good package.`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
