import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RegRunner } from '../../../bridge/src/install/registry.ts';

/** Temporary homes laid out as a person's on each platform, and a registry for the Windows one. */

/** User data dirs (relative to the home) that a person who has used these browsers has. */
export const LAYOUTS = {
  linux: { chrome: '.config/google-chrome', chromium: '.config/chromium', edge: '.config/microsoft-edge', brave: '.config/BraveSoftware/Brave-Browser' },
  darwin: {
    chrome: 'Library/Application Support/Google/Chrome',
    chromium: 'Library/Application Support/Chromium',
    edge: 'Library/Application Support/Microsoft Edge',
    brave: 'Library/Application Support/BraveSoftware/Brave-Browser',
  },
  win32: {
    chrome: 'AppData/Local/Google/Chrome/User Data',
    chromium: 'AppData/Local/Chromium/User Data',
    edge: 'AppData/Local/Microsoft/Edge/User Data',
    brave: 'AppData/Local/BraveSoftware/Brave-Browser/User Data',
  },
} as const;

export type Platform = keyof typeof LAYOUTS;

/** Makes the user data dirs of `browsers` under `home`, as if each had been started once. */
export function useBrowsers(home: string, platform: Platform, browsers: Array<keyof (typeof LAYOUTS)['linux']>): void {
  for (const browser of browsers) mkdirSync(join(home, LAYOUTS[platform][browser]), { recursive: true });
}

/** Every file under `dir`, relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * HKCU as `reg.exe` shows it: `add`, `query /ve` and `delete` on default values, with reg's output
 * formats, recording every argv. `refuse` makes a call fail as a policy would.
 */
export class FakeRegistry {
  readonly calls: string[][] = [];
  readonly values = new Map<string, string>();
  refuse?: (args: string[]) => boolean;

  readonly run: RegRunner = (args) => {
    this.calls.push(args);
    if (this.refuse?.(args)) return { code: 1, stdout: '', stderr: 'ERROR: Access is denied.\r\n' };
    const [verb, key] = args;
    if (verb === 'query') {
      const value = this.values.get(key!);
      if (value === undefined) return { code: 1, stdout: '', stderr: 'ERROR: The system was unable to find the specified registry key or value.\r\n' };
      return ok(`\r\n${key}\r\n    (Default)    REG_SZ    ${value}\r\n\r\n`);
    }
    if (verb === 'add') {
      this.values.set(key!, args[args.indexOf('/d') + 1]!);
      return ok('The operation completed successfully.\r\n');
    }
    if (verb === 'delete') {
      if (!this.values.delete(key!)) return { code: 1, stdout: '', stderr: 'ERROR: The system was unable to find the specified registry key or value.\r\n' };
      return ok('The operation completed successfully.\r\n');
    }
    return { code: 1, stdout: '', stderr: `ERROR: Invalid syntax (${verb}).\r\n` };
  };

  /** The writes, without the queries. */
  writes(): string[][] {
    return this.calls.filter((c) => c[0] !== 'query');
  }
}

const ok = (stdout: string): ReturnType<RegRunner> => ({ code: 0, stdout, stderr: '' });

/**
 * Makes `dir` unwritable for this process: mode 0555 for a user, the immutable attribute for root
 * (who writes through any mode). Returns the undo, or null where neither works.
 */
export function makeUnwritable(dir: string): (() => void) | null {
  if (process.getuid?.() !== 0) {
    const mode = statSync(dir).mode & 0o777;
    chmodSync(dir, 0o555);
    return () => chmodSync(dir, mode);
  }
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
    return () => execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
}
