import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { socketPath } from '../paths.ts';
import { BROWSER_LABELS, browserPlace, chooseBrowsers, type BrowserName } from '../install/browsers.ts';
import { extensionIds, originOf } from '../install/extension-ids.ts';
import { MANIFEST_FILE, readHostManifest } from '../install/host-manifest.ts';
import { readLauncher } from '../install/launcher.ts';
import { readRecord, type Target } from '../install/record.ts';
import { regDefaultValue, type RegRunner } from '../install/registry.ts';
import { profileManifest, type Where } from '../install/targets.ts';
import type { HostProbe, ProbeHost } from './probe-host.ts';

/**
 * `steward-bridge doctor`: for each browser, is the host manifest where that browser reads it,
 * does it name our host and Steward's id, is its launcher there, executable and running a Node
 * and CLI that exist, does the host start and answer; and is Steward connected now. Every problem
 * comes with the command (or step) that fixes it.
 */

export interface Check {
  ok: boolean;
  text: string;
  /** The command (or step) that fixes a problem. */
  fix?: string;
}

interface BrowserReport {
  /** null: a profile given with --user-data-dir. */
  browser: BrowserName | null;
  label: string;
  /** The manifest file or registry key this browser reads. */
  where: string;
  checks: Check[];
}

export interface DoctorReport {
  ok: boolean;
  browsers: BrowserReport[];
  steward: Check;
}

export interface DoctorOptions extends Omit<Where, 'browsers'> {
  home: string;
  /** Which browsers; undefined: those the install record lists, else every one this user has. */
  browsers?: readonly BrowserName[] | 'all';
  givenIds: readonly string[];
  defaultIds: readonly string[];
  reg?: RegRunner;
  probeHost: ProbeHost;
  probeSocket: (path: string) => Promise<boolean>;
  /** Options every fix command repeats (--home DIR, --user-data-dir DIR). */
  fixFlags: readonly string[];
}

interface Subject {
  browser: BrowserName | null;
  label: string;
  target: Target;
}

const quoteArg = (value: string) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`);

export async function doctor(options: DoctorOptions): Promise<DoctorReport> {
  const read = readRecord(options.home);
  const record = read.kind === 'ok' ? read.record : undefined;
  const ids = extensionIds(options.givenIds, record?.extension_ids ?? options.defaultIds);
  const expected = ids.ok ? ids.ids : [...options.defaultIds];
  const subjects = chooseSubjects(options, record?.targets);
  const fix = (browser: BrowserName | null) =>
    ['steward-bridge install', ...(browser ? ['--browser', browser] : []), ...options.fixFlags, ...options.givenIds.flatMap((id) => ['--extension-id', id])]
      .map((w, i) => (i === 0 ? w : quoteArg(w)))
      .join(' ');

  // Whether Steward is connected is asked first: the probes below start hosts of their own for a moment.
  const steward = await stewardCheck(options, subjects);
  const probes = new Map<string, Promise<HostProbe>>();
  const browsers: BrowserReport[] = [];
  if (subjects.kind === 'none') {
    browsers.push({ browser: null, label: 'Browsers', where: '', checks: [{ ok: false, text: subjects.problem, fix: subjects.fix }] });
  } else {
    for (const subject of subjects.list) {
      const checks = await checkBrowser(subject, expected, options, fix(subject.browser), probes);
      browsers.push({ browser: subject.browser, label: subject.label, where: subject.target.kind === 'file' ? subject.target.path : subject.target.key, checks });
    }
  }
  const ok = steward.ok && browsers.every((b) => b.checks.every((c) => c.ok));
  return { ok, browsers, steward };
}

type Subjects = { kind: 'list'; list: Subject[] } | { kind: 'none'; problem: string; fix: string };

function chooseSubjects(options: DoctorOptions, recorded: Target[] | undefined): Subjects {
  if (options.userDataDir !== undefined)
    return { kind: 'list', list: [{ browser: null, label: `The profile ${options.userDataDir}`, target: { kind: 'file', browsers: [], path: profileManifest(options.userDataDir) } }] };
  const toSubject = (browser: BrowserName): Subject => {
    const place = browserPlace(browser, options.user);
    return {
      browser,
      label: BROWSER_LABELS[browser],
      target:
        place.kind === 'dir' ? { kind: 'file', browsers: [browser], path: (options.user.join ?? join)(place.manifestDir, MANIFEST_FILE) } : { kind: 'registry', browsers: [browser], key: place.key },
    };
  };
  if (options.browsers && options.browsers !== 'all') return { kind: 'list', list: options.browsers.map(toSubject) };
  if (!options.browsers && recorded?.length) {
    const list = recorded.flatMap((t) => (t.browsers.length ? t.browsers.map(toSubject) : [{ browser: null, label: `The profile with ${t.kind === 'file' ? t.path : t.key}`, target: t }]));
    return { kind: 'list', list };
  }
  const present = chooseBrowsers('all', options.user, existsSync);
  if (!present.ok) return { kind: 'none', problem: present.problem, fix: 'start your browser once, then: steward-bridge install' };
  return { kind: 'list', list: present.places.map((p) => toSubject(p.browser)) };
}

async function stewardCheck(options: DoctorOptions, subjects: Subjects): Promise<Check> {
  let path: string;
  try {
    path = socketPath(options.home);
  } catch (error) {
    return { ok: false, text: (error as Error).message, fix: 'set STEWARD_BRIDGE_HOME to a shorter directory, then: steward-bridge install' };
  }
  const names = subjects.kind === 'list' ? [...new Set(subjects.list.map((s) => (s.browser ? BROWSER_LABELS[s.browser] : 'the browser')))].join(' or ') : 'your browser';
  if (await options.probeSocket(path)) return { ok: true, text: `Steward is connected: its host is listening on ${path}` };
  return {
    ok: false,
    text: `Steward is not connected: no host is listening on ${path}`,
    fix: `open ${names} with Steward (it starts the host itself; once the checks above pass, opening Steward's side panel makes it try again at once)`,
  };
}

async function checkBrowser(subject: Subject, expected: readonly string[], options: DoctorOptions, fix: string, probes: Map<string, Promise<HostProbe>>): Promise<Check[]> {
  const checks: Check[] = [];
  const ok = (text: string) => checks.push({ ok: true, text });
  const problem = (text: string, how = fix) => {
    checks.push({ ok: false, text, fix: how });
    return checks;
  };
  const reads = subject.browser ? `where ${subject.label} reads it` : 'in the profile';

  // 1. The manifest, where this browser reads it.
  let manifestPath: string;
  if (subject.target.kind === 'registry') {
    const value = options.reg ? regDefaultValue(options.reg, subject.target.key) : null;
    if (value === null) return problem(`no registry key ${subject.target.key} (${subject.label} finds its host there)`);
    if (!existsSync(value)) return problem(`${subject.target.key} names ${value}, which does not exist`);
    manifestPath = value;
    ok(`${subject.target.key} names the host manifest ${value}`);
  } else {
    manifestPath = subject.target.path;
    if (!existsSync(manifestPath)) return problem(`no host manifest at ${manifestPath}, ${reads}`);
    ok(`host manifest at ${manifestPath}, ${reads}`);
  }

  // 2. It names our host, and 3. Steward's extension id(s).
  const manifest = readHostManifest(readFileSync(manifestPath, 'utf8'));
  if (!manifest.ok) return problem(`${manifestPath} ${manifest.problem}`);
  const missing = expected.filter((id) => !manifest.extensionIds.includes(id));
  if (missing.length) {
    const allowed = manifest.extensionIds.length ? manifest.extensionIds.join(', ') : 'no extension';
    return problem(`it allows ${allowed}, not Steward's ${missing.join(', ')}`, `${fix}${options.givenIds.length ? '' : missing.map((id) => ` --extension-id ${id}`).join('')}`);
  }
  ok(`it names com.steward.bridge and allows Steward (${manifest.extensionIds.join(', ')})`);

  // 4. The launcher it names: there, and executable.
  const launcher = manifest.launcher;
  if (!existsSync(launcher)) return problem(`the launcher it names, ${launcher}, is missing`);
  if (options.user.platform !== 'win32' && !executable(launcher)) return problem(`the launcher ${launcher} is not executable`);
  ok(`its launcher ${launcher} is there${options.user.platform === 'win32' ? '' : ' and executable'}`);

  // 5. What the launcher runs: a Node and a CLI that exist, for Steward's ids.
  const spec = readLauncher(readFileSync(launcher, 'utf8'), options.user.platform);
  if (!spec) return problem(`${launcher} is not a launcher steward-bridge wrote`);
  if (!existsSync(spec.nodePath)) return problem(`the launcher runs Node at ${spec.nodePath}, which is not there any more (moved or upgraded?): install again with the Node the host should use`);
  if (!existsSync(spec.cliPath)) return problem(`the launcher runs ${spec.cliPath}, which is not there any more`);
  const refused = manifest.extensionIds.filter((id) => !spec.extensionIds.includes(id));
  if (refused.length) return problem(`the launcher lets only ${spec.extensionIds.join(', ')} start the host, not ${refused.join(', ')}`);
  ok(`the launcher runs ${[spec.nodePath, ...spec.nodeFlags, spec.cliPath].join(' ')}`);

  // 6. The host starts and answers, as the browser would start it (once per launcher).
  const origin = originOf(expected[0]!);
  const key = `${launcher}\n${origin}`;
  if (!probes.has(key)) probes.set(key, options.probeHost(launcher, origin));
  const probe = await probes.get(key)!;
  if (probe.kind === 'hello') ok(`the host starts and answers (steward-bridge ${probe.version}, protocol ${probe.protocol})`);
  else if (probe.kind === 'busy') ok('the host starts (the one the browser started is already serving Steward)');
  else if (probe.kind === 'refused') return problem(`the host refuses Steward: ${probe.detail}`);
  else return problem(`the host does not start and answer: ${probe.detail}`);
  return checks;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    // root may "execute" anything: the browser needs an execute bit.
    return (statSync(path).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}
