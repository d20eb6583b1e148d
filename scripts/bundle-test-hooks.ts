import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_HOOK_NAMES } from '../src/background/test-hooks.ts';

/** The test hook names (src/background/test-hooks.ts) that appear in these scripts' text. */
export function testHooksInScripts(texts: readonly string[]): string[] {
  const text = texts.join('\n');
  return TEST_HOOK_NAMES.filter((name) => text.includes(name));
}

/** The test hook names that appear in a built extension's scripts. */
export function testHooksIn(dist: string): string[] {
  const scripts = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
  return testHooksInScripts(scripts.map((f) => readFileSync(join(dist, f), 'utf8')));
}
