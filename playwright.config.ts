import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // A click, screenshot or navigation that hangs fails where it hangs (with its call log), not as a bare test timeout.
  use: { actionTimeout: 30_000, navigationTimeout: 30_000 },
  reporter: [['list']],
  globalSetup: './test/e2e/global-setup.ts',
});
