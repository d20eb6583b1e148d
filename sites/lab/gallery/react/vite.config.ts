/** Builds the React gallery SPA (issue 14) into dist-gallery/react, served by sites/lab/gallery/react-routes.ts. */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/gallery/react/',
  logLevel: 'warn',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: fileURLToPath(new URL('../../../../dist-gallery/react', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    target: 'chrome120',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 2000,
    // MUI marks its modules 'use client' for server components; a client-only bundle can ignore that.
    rolldownOptions: { onLog: (level, log, handler) => (log.code === 'MODULE_LEVEL_DIRECTIVE' ? undefined : handler(level, log)) },
  },
});
