import { defineConfig } from 'vite';

// One Node bundle of the CLI (with the shared protocol from ../src/protocol); the MCP SDK and zod stay dependencies.
export default defineConfig({
  root: import.meta.dirname,
  build: {
    ssr: 'src/cli.ts',
    outDir: 'dist',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: { output: { entryFileNames: 'cli.js', format: 'es' } },
  },
});
