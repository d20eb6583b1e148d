import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * No new test doors in production code: `knip --production` reads only what ships (the extension's
 * entry points and the bridge's, the `!` patterns in knip.json), so an export it calls unused is
 * one only tests, benchmarks, scripts or the demo sites use. The exports that were so when this
 * check began are listed in knip-test-only-exports.json, to be worked off; a new one fails here
 * (make the test use the public surface, or move the helper into test/), and one that is gone
 * must leave the list (`--update` rewrites it). Any other finding of production mode (an unused
 * file, a dependency only tests need) fails as it is.
 */

const ROOT = join(import.meta.dirname, '..');
const LIST = join(ROOT, 'knip-test-only-exports.json');

const Issue = z.object({
  file: z.string(),
  exports: z.array(z.object({ name: z.string() })),
  types: z.array(z.object({ name: z.string() })),
});
const Report = z.object({ issues: z.array(z.looseObject({ file: z.string() })) });
const Listed = z.array(z.string());

const raw = execFileSync('npx', ['knip', '--production', '--reporter', 'json', '--no-exit-code'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
const report = Report.parse(JSON.parse(raw));

/** `npm start` builds and opens Chrome with tsx, a devDependency: production mode counts the start script as shipped, but it is a developer's. */
const DEVELOPER_BINARIES = ['tsx'];

const found: string[] = [];
const other: string[] = [];
for (const entry of report.issues) {
  const issue = Issue.parse({ exports: [], types: [], ...entry });
  for (const e of [...issue.exports, ...issue.types]) found.push(`${issue.file}: ${e.name}`);
  for (const [kind, value] of Object.entries(entry)) {
    if (['file', 'owners', 'exports', 'types'].includes(kind) || !Array.isArray(value)) continue;
    const names = value.map((v: { name?: string }) => v.name ?? JSON.stringify(v)).filter((name) => !(kind === 'binaries' && DEVELOPER_BINARIES.includes(name)));
    if (names.length > 0) other.push(`${issue.file}: ${kind} ${names.join(', ')}`);
  }
}
found.sort();

if (process.argv.includes('--update')) {
  writeFileSync(LIST, `${JSON.stringify(found, null, 2)}\n`);
  console.log(`knip-test-only-exports.json: ${found.length} exports`);
  process.exit(0);
}

const listed = new Set(Listed.parse(JSON.parse(readFileSync(LIST, 'utf8'))));
const added = found.filter((f) => !listed.has(f));
const gone = [...listed].filter((f) => !found.includes(f));
const problems = [
  ...other.map((o) => `production mode: ${o}`),
  ...added.map((a) => `exported for tests only (nothing that ships uses it): ${a}`),
  ...gone.map((g) => `no longer a test-only export, take it off knip-test-only-exports.json: ${g}`),
];
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`knip --production: clean (${found.length} listed test-only exports left to work off)`);
