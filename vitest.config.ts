import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    setupFiles: ['test/unit/setup-browser.ts'],
    environment: 'node',
    pool: 'threads',
    maxWorkers: 2,
  },
});
