/**
 * The web-platform-tests `webmcp/` suite, served at the paths its pages name (`/webmcp/…`,
 * `/resources/testharness.js`, `/common/blank.html`): the vendored upstream files from
 * test/fixtures/wpt-webmcp/, plus Steward's support files from test/fixtures/wpt-webmcp-support/
 * (its own testharnessreport.js, which keeps the results for the e2e test and the bench, and
 * stand-ins for upstream helpers that were not vendored). The lab's other origin
 * (127.0.0.1 ↔ localhost) serves them too, for the tests' cross-origin frames.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Router } from '../http.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures');
const VENDORED = join(FIXTURES, 'wpt-webmcp');
const SUPPORT = join(FIXTURES, 'wpt-webmcp-support');
/** Only the suite's own folders are served: the licence and README stay files in the repository. */
const SERVED_TOP = new Set(['webmcp', 'resources', 'common']);

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** URL path → file, the support files after the vendored ones (a support file never replaces an upstream one). */
function servedFiles(): Map<string, string> {
  const served = new Map<string, string>();
  for (const root of [VENDORED, SUPPORT]) {
    for (const file of filesUnder(root)) {
      const path = '/' + relative(root, file).split(sep).join('/');
      const type = Object.keys(TYPES).find((ext) => file.endsWith(ext));
      if (!type || !SERVED_TOP.has(path.split('/')[1]!) || served.has(path)) continue;
      served.set(path, file);
    }
  }
  return served;
}

/** The test pages of the suite (URL paths), in a stable order. */
export function wptTestPaths(): string[] {
  return [...servedFiles().keys()].filter((p) => p.startsWith('/webmcp/') && p.endsWith('.html') && !p.includes('/resources/')).sort();
}

export function mountWptWebMcp(router: Router): void {
  for (const [path, file] of servedFiles()) {
    const type = TYPES[Object.keys(TYPES).find((ext) => file.endsWith(ext))!]!;
    router.get(path, (ctx) => {
      ctx.res.statusCode = 200;
      ctx.res.setHeader('content-type', type);
      ctx.res.setHeader('cache-control', 'no-store');
      ctx.res.end(readFileSync(file));
    });
  }
}
