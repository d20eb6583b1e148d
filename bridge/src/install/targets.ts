import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BROWSERS, chooseBrowsers, type BrowserName, type UserPlace } from './browsers.ts';
import { MANIFEST_FILE } from './host-manifest.ts';
import type { Target } from './record.ts';

/** Where the person asked the host to go: browsers by name (or all that are there), or one profile dir. */
export interface Where {
  user: UserPlace;
  browsers: readonly BrowserName[] | 'all';
  /** A browser profile's user data dir (a separate profile, tests): its NativeMessagingHosts only. */
  userDataDir?: string;
}

export type TargetsOutcome = { ok: true; targets: Target[]; skipped: BrowserName[] } | { ok: false; problem: string };

export const profileManifest = (userDataDir: string): string => join(userDataDir, 'NativeMessagingHosts', MANIFEST_FILE);

/** The manifest files or registry keys for `where`; browsers that share one (Chrome's channels on Windows) share a target. */
export function resolveTargets(where: Where, exists: (path: string) => boolean = existsSync): TargetsOutcome {
  if (where.userDataDir !== undefined) {
    if (where.user.platform === 'win32') return { ok: false, problem: 'On Windows the browser finds its host through the registry, not in a profile dir: leave out --user-data-dir.' };
    return { ok: true, targets: [{ kind: 'file', browsers: [], path: profileManifest(where.userDataDir) }], skipped: [] };
  }
  const choice = chooseBrowsers(where.browsers, where.user, exists);
  if (!choice.ok) return choice;
  const targets: Target[] = [];
  for (const place of choice.places) {
    const target: Target =
      place.kind === 'dir' ? { kind: 'file', browsers: [place.browser], path: join(place.manifestDir, MANIFEST_FILE) } : { kind: 'registry', browsers: [place.browser], key: place.key };
    const same = targets.find((t) => sameTarget(t, target));
    if (same) same.browsers.push(place.browser);
    else targets.push(target);
  }
  return { ok: true, targets, skipped: choice.skipped };
}

export const sameTarget = (a: Target, b: Target): boolean => (a.kind === 'file' && b.kind === 'file' && a.path === b.path) || (a.kind === 'registry' && b.kind === 'registry' && a.key === b.key);

/** Every place a browser of this table would read the host from (uninstall's search when the record is gone). */
export function everyTarget(user: UserPlace): Target[] {
  const all = resolveTargets({ user, browsers: BROWSERS }, () => true);
  return all.ok ? all.targets : [];
}
