import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import manifest from './manifest.config.ts';
import { noWebAccessibleContentScripts } from './scripts/vite-manifest-tidy.ts';

export default defineConfig({
  plugins: [preact(), crx({ manifest }), noWebAccessibleContentScripts()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'chrome120' },
  server: { cors: { origin: [/chrome-extension:\/\//] } },
});
