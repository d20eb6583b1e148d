import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import manifest from './manifest.config.ts';
import { noWebAccessibleContentScripts } from './scripts/vite-manifest-tidy.ts';

/** Ships docs/PRIVACY.md in the package as PRIVACY.txt (Chrome shows it as text), linked from the panel's Settings. */
const privacyStatement = (): Plugin => ({
  name: 'steward-privacy-statement',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'PRIVACY.txt', source: readFileSync(new URL('docs/PRIVACY.md', import.meta.url), 'utf8') });
  },
});

export default defineConfig({
  // `npm run build:test` sets STEWARD_TEST_HOOKS=1; any other build leaves the test hooks out (src/background/test-hooks.ts).
  define: { __STEWARD_TEST_HOOKS__: JSON.stringify(process.env.STEWARD_TEST_HOOKS === '1') },
  plugins: [preact(), crx({ manifest }), noWebAccessibleContentScripts(), privacyStatement()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'chrome120' },
  server: { cors: { origin: [/chrome-extension:\/\//] } },
});
