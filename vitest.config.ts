import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    globalSetup: ['test/unit/global-setup.ts'],
    setupFiles: ['test/unit/setup-browser.ts'],
    environment: 'node',
    // Processes, not worker threads: Node aborts the whole run (v8 ToLocalChecked in KeyObjectHandle)
    // when a thread is torn down while a WebCrypto key job it started is still finishing.
    pool: 'forks',
    maxWorkers: 2,
  },
});
