import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensurePrivateDir } from '../paths.ts';
import { BROWSER_LABELS, type BrowserName } from './browsers.ts';
import { extensionIds } from './extension-ids.ts';
import { hostManifestText, MANIFEST_FILE, readHostManifest } from './host-manifest.ts';
import { Journal } from './journal.ts';
import { launcherPath, launcherText, type LauncherSpec } from './launcher.ts';
import { readRecord, recordPath, recordText, type InstallRecord, type Target } from './record.ts';
import type { RegRunner } from './registry.ts';
import { resolveTargets, sameTarget, type Where } from './targets.ts';

export interface InstallOptions extends Where {
  /** The bridge home: the launcher, the Windows manifest and the install record go here (never the person's browser dirs). */
  home: string;
  /** `--extension-id` values; none: the previous install's ids, else `defaultIds`. */
  givenIds: readonly string[];
  defaultIds: readonly string[];
  /** How to run this CLI again: node's absolute path, its flags, and the CLI's absolute path. */
  command: Pick<LauncherSpec, 'nodePath' | 'nodeFlags' | 'cliPath'>;
  /** Windows only: how `reg` is run. */
  reg?: RegRunner;
}

/** One line of what happened: `wrote`, `updated` or `registered` a file or key, for these browsers (none: the launcher or a profile). */
interface Change {
  verb: 'wrote' | 'updated' | 'registered' | 're-registered';
  what: string;
  browsers: BrowserName[];
}

export type InstallOutcome = { ok: true; changes: Change[]; skipped: BrowserName[]; extensionIds: string[]; updated: boolean } | { ok: false; problem: string };

/**
 * Installs the native-messaging host: the launcher (0700) in the bridge home, and the host
 * manifest where each chosen browser reads it (its NativeMessagingHosts dir; on Windows a manifest
 * next to the launcher and an HKCU key naming it). Everything is checked before anything is
 * written; a write that fails anyway undoes the ones before it. Running it again updates in place.
 */
export function install(options: InstallOptions): InstallOutcome {
  const { home } = options;
  const windows = options.user.platform === 'win32';
  const prior = readRecord(home);
  const record = prior.kind === 'ok' ? prior.record : undefined;
  const ids = extensionIds(options.givenIds, record?.extension_ids ?? options.defaultIds);
  if (!ids.ok) return ids;
  const chosen = resolveTargets(options);
  if (!chosen.ok) return chosen;
  const launcher = launcherPath(home, options.user.platform);
  const windowsManifest = windows ? join(home, 'host', MANIFEST_FILE) : undefined;

  // The launcher carries the ids, so manifests an earlier install wrote for other browsers follow them.
  const idsChanged = record !== undefined && record.extension_ids.join(',') !== ids.ids.join(',');
  const carried = idsChanged ? record.targets.filter((t) => t.kind === 'file' && !chosen.targets.some((c) => sameTarget(c, t)) && manifestNames(t.path, launcher)) : [];
  const targets = [...chosen.targets, ...carried];

  const problem = checkBeforeWriting(options, targets, launcher);
  if (problem) return { ok: false, problem: `${problem} Nothing was changed.` };

  const journal = new Journal(options.reg);
  const changes: Change[] = [];
  try {
    journal.mkdirs(home, 0o700);
    ensurePrivateDir(home);
    journal.mkdirs(join(home, 'host'), 0o700);
    ensurePrivateDir(join(home, 'host'));
    const spec: LauncherSpec = { ...options.command, home, extensionIds: ids.ids };
    changes.push({ verb: journal.write(launcher, launcherText(spec, options.user.platform), 0o700) ? 'updated' : 'wrote', what: launcher, browsers: [] });
    const manifest = hostManifestText(launcher, ids.ids);
    if (windowsManifest) changes.push({ verb: journal.write(windowsManifest, manifest, 0o644) ? 'updated' : 'wrote', what: windowsManifest, browsers: [] });
    for (const target of targets) {
      if (target.kind === 'file') {
        journal.mkdirs(dirname(target.path));
        changes.push({ verb: journal.write(target.path, manifest, 0o644) ? 'updated' : 'wrote', what: target.path, browsers: target.browsers });
      } else {
        changes.push({ verb: journal.setRegistry(target.key, windowsManifest!) ? 're-registered' : 'registered', what: target.key, browsers: target.browsers });
      }
    }
    const kept = (record?.targets ?? []).filter((t) => !targets.some((n) => sameTarget(n, t)));
    const next: InstallRecord = { version: 1, launcher, manifest: windowsManifest, extension_ids: ids.ids, node: options.command.nodePath, targets: [...kept, ...targets] };
    journal.write(recordPath(home), recordText(next), 0o600);
  } catch (error) {
    const failures = journal.rollback();
    const undone = failures.length ? ` Undoing the earlier steps failed too: ${failures.join('; ')}.` : ' Nothing was changed.';
    return { ok: false, problem: `Could not install Steward's host: ${(error as Error).message}.${undone}` };
  }
  const updated = changes.some((c) => c.verb === 'updated' || c.verb === 're-registered');
  return { ok: true, changes, skipped: chosen.skipped, extensionIds: ids.ids, updated };
}

/** Whether the manifest at `path` is one of ours for this launcher (a file that names another is not ours to change). */
function manifestNames(path: string, launcher: string): boolean {
  try {
    const read = readHostManifest(readFileSync(path, 'utf8'));
    return read.ok && read.launcher === launcher;
  } catch {
    return false;
  }
}

/** The first reason the install cannot go through, in one sentence, or undefined. */
function checkBeforeWriting(options: InstallOptions, targets: Target[], launcher: string): string | undefined {
  for (const [path, what] of [
    [options.command.nodePath, 'Node'],
    [options.command.cliPath, 'the steward-bridge CLI'],
  ] as const) {
    if (!existsSync(path)) return `${what} is not at ${path}, so a launcher could not run it.`;
  }
  if (existsSync(options.home) && !statSync(options.home).isDirectory()) return `The bridge home ${options.home} is not a directory.`;
  const homeProblem = unwritable(join(options.home, 'host'));
  if (homeProblem) return homeProblem;
  if (existsSync(launcher) && !statSync(launcher).isFile()) return `${launcher} is in the way of the launcher (it is not a file).`;
  for (const target of targets) {
    if (target.kind !== 'file') continue;
    const label = target.browsers.length ? `${target.browsers.map((b) => BROWSER_LABELS[b]).join(', ')}'s host manifest` : 'The host manifest';
    if (existsSync(target.path)) {
      if (!statSync(target.path).isFile()) return `${label} would go to ${target.path}, but something that is not a file is there.`;
      const read = readHostManifest(readFileSync(target.path, 'utf8'));
      if (!read.ok) return `${target.path} already exists and ${read.problem}: it is not a manifest steward-bridge wrote, so it is left alone (move it away, then install again).`;
    }
    const problem = unwritable(dirname(target.path));
    if (problem) return problem;
  }
  // Registry keys under HKCU are the user's own; a refusal (policy) is caught when writing, and undone.
  return undefined;
}

/** Why files cannot be created in `dir` (checked on its nearest existing ancestor), or undefined. */
function unwritable(dir: string): string | undefined {
  let existing = dir;
  while (!existsSync(existing)) existing = dirname(existing);
  if (!statSync(existing).isDirectory()) return `Cannot write into ${dir}: ${existing} is not a directory.`;
  try {
    accessSync(existing, constants.W_OK);
  } catch (error) {
    return `Cannot write into ${dir}: ${existing} is not writable by this user (${(error as NodeJS.ErrnoException).code ?? 'denied'}).`;
  }
  return undefined;
}
