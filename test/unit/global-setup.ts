import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * What some unit tests run or serve is built first, so `npm run test:unit` passes on a fresh clone
 * by itself: the bridge's bundle (the CLI the bridge tests start as processes, as the npm package
 * ships it) and the React gallery (the pages the demo-site tests serve). Both are rebuilt every run,
 * so a test never meets a stale build of changed sources.
 */
export default function globalSetup(): void {
  for (const config of ['bridge/vite.config.ts', 'sites/lab/gallery/react/vite.config.ts']) {
    // As `npm run build` builds them: vitest's NODE_ENV=test would give React's development JSX runtime, which the e2e pages do not load.
    execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '-c', config], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
}
