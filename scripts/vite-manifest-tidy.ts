import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * crxjs lists scripts imported with `?script` as web-accessible to every http(s) page. Steward
 * registers them with chrome.scripting, which needs no such listing, and a listing would let any
 * page fetch them and learn that Steward is installed: drop those entries after the build.
 */
export function noWebAccessibleContentScripts(): Plugin {
  let outDir = 'dist';
  return {
    name: 'steward:no-web-accessible-content-scripts',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    writeBundle() {
      const path = join(outDir, 'manifest.json');
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as { web_accessible_resources?: Array<{ resources: string[] }> };
      const kept = (manifest.web_accessible_resources ?? [])
        .map((entry) => ({ ...entry, resources: entry.resources.filter((r) => !/^src\/content\/.*\.iife\.js$/.test(r)) }))
        .filter((entry) => entry.resources.length > 0);
      if (kept.length > 0) manifest.web_accessible_resources = kept;
      else delete manifest.web_accessible_resources;
      writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}
