import { defineConfig } from 'vitest/config';
import type { InlineConfig } from 'vitest/node';

/**
 * Files that replace a module (`vi.mock`) for the whole file: each runs in a fresh process, so the
 * replacement reaches no other file. Every other file shares its worker's modules (`isolate: false`):
 * a fresh process per file spent four fifths of the unit run loading the same modules again.
 */
const ALONE = ['test/unit/sidepanel/site-permission.test.ts', 'test/unit/sidepanel/welcome.test.ts'];

/** What every project shares: Node, the fake browser reset before each test, and forked processes. */
const EACH = {
  setupFiles: ['test/unit/setup-browser.ts'],
  environment: 'node',
  // Processes, not worker threads: Node aborts the whole run (v8 ToLocalChecked in KeyObjectHandle)
  // when a thread is torn down while a WebCrypto key job it started is still finishing.
  pool: 'forks',
  // A global a test replaces is put back after it, whichever file runs next in the same worker.
  unstubGlobals: true,
} satisfies InlineConfig;

export default defineConfig({
  test: {
    globalSetup: ['test/unit/global-setup.ts'],
    maxWorkers: 2,
    projects: [{ test: { ...EACH, name: 'shared', include: ['test/unit/**/*.test.ts'], exclude: ALONE, isolate: false } }, { test: { ...EACH, name: 'alone', include: ALONE } }],
  },
});
