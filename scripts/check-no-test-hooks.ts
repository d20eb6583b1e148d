// `npm run test:no-test-hooks`: a production build must not carry the service worker's test hooks.
// It builds into a temporary folder, so dist/ (perhaps a test build) is left as it is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { testHooksIn } from './bundle-test-hooks.ts';

delete process.env.STEWARD_TEST_HOOKS;
const outDir = mkdtempSync(join(tmpdir(), 'steward-production-'));
try {
  await build({ build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
  const found = testHooksIn(outDir);
  if (found.length > 0) {
    console.error(`The production build carries test hooks: ${found.join(', ')}. Install them only under __STEWARD_TEST_HOOKS__ (src/background/test-hooks.ts).`);
    process.exitCode = 1;
  } else console.log('The production build carries no test hooks.');
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
