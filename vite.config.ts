import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import manifest from './manifest.config.ts';
import { noWebAccessibleContentScripts } from './scripts/vite-manifest-tidy.ts';

export default defineConfig({
  // `npm run build:test` sets STEWARD_TEST_HOOKS=1; any other build leaves the test hooks out (src/background/test-hooks.ts).
  define: { __STEWARD_TEST_HOOKS__: JSON.stringify(process.env.STEWARD_TEST_HOOKS === '1') },
  plugins: [preact(), crx({ manifest }), noWebAccessibleContentScripts()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'chrome120' },
  server: { cors: { origin: [/chrome-extension:\/\//] } },
});
