import { existsSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BrowserName } from './browsers.ts';
import { MANIFEST_FILE, readHostManifest } from './host-manifest.ts';
import { Journal } from './journal.ts';
import { launcherPath } from './launcher.ts';
import { readRecord, recordPath, recordText, targetWhere, type InstallRecord, type Target } from './record.ts';
import { regDefaultValue, type RegRunner } from './registry.ts';
import { everyTarget, profileManifest, type Where } from './targets.ts';

export interface UninstallOptions extends Omit<Where, 'browsers'> {
  home: string;
  /** Only these browsers' manifests; undefined: everything the install record lists. */
  browsers?: readonly BrowserName[];
  reg?: RegRunner;
}

interface Removal {
  verb: 'removed' | 'kept';
  what: string;
  /** Why it was kept (another program's manifest, or one naming another launcher). */
  why?: string;
}

export type UninstallOutcome = { ok: true; removals: Removal[]; note?: string } | { ok: false; problem: string };

/**
 * Removes what `install` wrote, as its record in the bridge home lists it: each manifest (only if
 * it still names this home's launcher) or registry key (only if it still names this home's
 * manifest), and once no browser is left, the launcher and the record. Without a readable record
 * it looks in every browser's place for manifests naming this home's launcher.
 */
export function uninstall(options: UninstallOptions): UninstallOutcome {
  const { home } = options;
  const platform = options.user.platform;
  const read = readRecord(home);
  const launcher = read.kind === 'ok' ? read.record.launcher : launcherPath(home, platform);
  const manifest = read.kind === 'ok' ? read.record.manifest : platform === 'win32' ? join(home, 'host', MANIFEST_FILE) : undefined;
  const note = read.kind === 'invalid' ? `The install record is unreadable (${read.problem}); looked for manifests that name ${launcher} instead.` : undefined;
  const known: Target[] = read.kind === 'ok' ? read.record.targets : searchTargets(options);
  const chosen = known.filter((t) => selected(t, options));

  const journal = new Journal(options.reg);
  const removals: Removal[] = [];
  try {
    for (const target of chosen) {
      const why = notOurs(target, launcher, manifest, options.reg);
      if (why === 'gone') continue;
      if (why) removals.push({ verb: 'kept', what: targetWhere(target), why });
      else {
        if (target.kind === 'file') journal.remove(target.path);
        else journal.deleteRegistry(target.key);
        removals.push({ verb: 'removed', what: targetWhere(target) });
      }
    }
    // What stays installed: the record's other targets (without a record, the other places that name our launcher).
    const left = known.filter((t) => !chosen.includes(t) && (read.kind === 'ok' || notOurs(t, launcher, manifest, options.reg) === undefined));
    if (left.length === 0) {
      for (const file of [launcher, manifest]) {
        if (!file || !existsSync(file)) continue;
        journal.remove(file);
        removals.push({ verb: 'removed', what: file });
      }
      if (existsSync(recordPath(home))) journal.remove(recordPath(home));
    } else if (read.kind === 'ok') {
      const next: InstallRecord = { ...read.record, targets: left };
      journal.write(recordPath(home), recordText(next), 0o600);
    }
  } catch (error) {
    const failures = journal.rollback();
    return { ok: false, problem: `Could not uninstall: ${(error as Error).message}.${failures.length ? ` Undoing failed too: ${failures.join('; ')}.` : ' Nothing was changed.'}` };
  }
  removeIfEmpty(dirname(launcher));
  return { ok: true, removals, note };
}

function selected(target: Target, options: UninstallOptions): boolean {
  if (options.userDataDir !== undefined) return target.kind === 'file' && target.path === profileManifest(options.userDataDir);
  if (!options.browsers) return true;
  return target.browsers.some((b) => options.browsers!.includes(b));
}

/** With no record: every browser's place, and the profile named, whose manifest names this home's launcher or manifest. */
function searchTargets(options: UninstallOptions): Target[] {
  const targets = everyTarget(options.user);
  if (options.userDataDir !== undefined) targets.push({ kind: 'file', browsers: [], path: profileManifest(options.userDataDir) });
  return targets;
}

/** Why a target is not ours to remove ('gone' when nothing is there), or undefined when it is. */
function notOurs(target: Target, launcher: string, manifest: string | undefined, reg: RegRunner | undefined): string | undefined {
  if (target.kind === 'registry') {
    const value = reg ? regDefaultValue(reg, target.key) : null;
    if (value === null) return 'gone';
    return value === manifest ? undefined : `it names ${value}, not this install's manifest`;
  }
  if (!existsSync(target.path)) return 'gone';
  const read = readHostManifest(readFileSync(target.path, 'utf8'));
  if (!read.ok) return `it ${read.problem}: not a manifest steward-bridge wrote`;
  return read.launcher === launcher ? undefined : `it names the launcher ${read.launcher}, not this install's (${launcher})`;
}

function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // not there
  }
}
