import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';
import manifest from './package.json' with { type: 'json' };

// The packages an install of the tarball brings (package.json `dependencies`) stay imports; everything
// else, the shared protocol from ../src included, is bundled into the one file the package ships.
const dependencies = Object.keys(manifest.dependencies);
const builtins = new Set(builtinModules);
const external = (id: string) => id.startsWith('node:') || builtins.has(id) || dependencies.some((name) => id === name || id.startsWith(`${name}/`));

export default defineConfig({
  root: import.meta.dirname,
  ssr: { noExternal: true },
  build: {
    ssr: 'src/cli.ts',
    outDir: 'dist',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    rollupOptions: { external, output: { entryFileNames: 'cli.js', format: 'es' } },
  },
});
