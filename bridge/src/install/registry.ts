import { spawnSync } from 'node:child_process';

/**
 * The Windows registry through `reg.exe` (no native module): the default value of a key under
 * HKCU is the host manifest's path. The runner is injected, so tests on any platform record the
 * exact argv and play the registry's part.
 */

interface RegResult {
  code: number;
  stdout: string;
  stderr: string;
}

export type RegRunner = (args: string[]) => RegResult;

export const runReg: RegRunner = (args) => {
  const run = spawnSync('reg', args, { encoding: 'utf8', windowsHide: true, timeout: 20_000 });
  return { code: run.status ?? 1, stdout: run.stdout ?? '', stderr: run.stderr || run.error?.message || '' };
};

const why = (result: RegResult) => (result.stderr || result.stdout).trim().split(/\r?\n/)[0] || `reg exited with ${result.code}`;

/** The key's default value, or null when the key (or its default value) is absent. */
export function regDefaultValue(reg: RegRunner, key: string): string | null {
  const result = reg(['query', key, '/ve']);
  if (result.code !== 0) return null;
  // "    (Default)    REG_SZ    C:\path\to\manifest.json" (the "(Default)" word is localised; the type is not).
  const line = result.stdout.split(/\r?\n/).find((l) => /\sREG_(EXPAND_)?SZ\s/.test(l));
  const value = line?.replace(/^.*?\sREG_(EXPAND_)?SZ\s+/, '').trim();
  return value ? value : null;
}

export function regSetDefault(reg: RegRunner, key: string, value: string): void {
  const result = reg(['add', key, '/ve', '/t', 'REG_SZ', '/d', value, '/f']);
  if (result.code !== 0) throw new Error(`reg add ${key} failed: ${why(result)}`);
}

export function regDelete(reg: RegRunner, key: string): void {
  const result = reg(['delete', key, '/f']);
  if (result.code !== 0) throw new Error(`reg delete ${key} failed: ${why(result)}`);
}
