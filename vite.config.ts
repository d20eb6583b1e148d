import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import manifest from './manifest.config.ts';

export default defineConfig({
  plugins: [preact(), crx({ manifest })],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'chrome120' },
  server: { cors: { origin: [/chrome-extension:\/\//] } },
});
