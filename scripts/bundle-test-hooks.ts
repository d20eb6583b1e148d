import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_HOOK_NAMES } from '../src/background/test-hooks.ts';

/** The test hook names (src/background/test-hooks.ts) that appear in a built extension's scripts. */
export function testHooksIn(dist: string): string[] {
  const scripts = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
  const text = scripts.map((f) => readFileSync(join(dist, f), 'utf8')).join('\n');
  return TEST_HOOK_NAMES.filter((name) => text.includes(name));
}
