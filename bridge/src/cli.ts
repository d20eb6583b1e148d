import { readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ClientKey, STEWARD_EXTENSION_ID } from '../../src/protocol/bridge.ts';
import { runAudit } from './audit/command.ts';
import { runConfig } from './config/command.ts';
import { probeSocket } from './host/private-socket.ts';
import { runHost } from './host/host.ts';
import { doctor } from './doctor/doctor.ts';
import { probeHost } from './doctor/probe-host.ts';
import { reportText } from './doctor/report.ts';
import { BROWSER_LABELS, BROWSERS, isBrowserName, type BrowserName, type UserPlace } from './install/browsers.ts';
import { extensionIds } from './install/extension-ids.ts';
import { install, type InstallOutcome } from './install/install.ts';
import { launcherPath } from './install/launcher.ts';
import { runReg } from './install/registry.ts';
import { uninstall } from './install/uninstall.ts';
import { connectLink } from './link/socket-link.ts';
import { logToStderr as log } from './log.ts';
import { readOrCreateClientHttpToken, readOrCreateHttpToken, serveHttp, serveStdio } from './mcp/index.ts';
import { pairFromTerminal } from './mcp/pair-command.ts';
import { bridgeHome, bridgeHomePath, socketPath } from './paths.ts';
import { USAGE } from './usage.ts';
import { BRIDGE_VERSION } from './version.ts';

const DEFAULT_PORT = 8787;

class UsageError extends Error {}

const common = { home: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;
const placement = { 'extension-id': { type: 'string', multiple: true }, 'user-data-dir': { type: 'string' }, browser: { type: 'string', multiple: true } } as const;
const serving = {
  http: { type: 'boolean' },
  port: { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  credential: { type: 'string' },
  'client-key-file': { type: 'string' },
} as const;

/** The client's credential file: `--credential FILE`, else STEWARD_BRIDGE_CREDENTIAL (for clients whose config sets env rather than args). */
const credentialFile = (flag: string | undefined): string | undefined => flag || process.env.STEWARD_BRIDGE_CREDENTIAL || undefined;

/**
 * The organisation's key for this client (policy mcpClientKeys): read from `--client-key-file FILE`,
 * else STEWARD_CLIENT_KEY (the key itself, for clients whose config sets env). Undefined: none.
 */
function clientKey(file: string | undefined): string | undefined {
  let key: string | undefined;
  if (file) {
    try {
      key = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new UsageError(`--client-key-file ${file} cannot be read: ${(error as Error).message}`);
    }
  } else key = process.env.STEWARD_CLIENT_KEY?.trim() || undefined;
  if (key !== undefined && !ClientKey.safeParse(key).success) throw new UsageError('The client key must be 16 to 512 printable characters without spaces.');
  return key;
}

function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...common, ...options }, strict: true as const, allowPositionals: false as const });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function port(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new UsageError(`--port ${value} is not a port number.`);
  return n;
}

/** `--browser` values (repeatable): undefined when none, `all`, or the named browsers. */
function browsers(values: string[] | undefined): readonly BrowserName[] | 'all' | undefined {
  if (!values?.length) return undefined;
  const unknown = values.find((v) => v !== 'all' && !isBrowserName(v));
  if (unknown !== undefined) throw new UsageError(`--browser must be one of ${[...BROWSERS, 'all'].join(', ')}, not ${JSON.stringify(unknown)}.`);
  if (values.includes('all')) return 'all';
  return [...new Set(values as BrowserName[])];
}

/** The person whose browsers these are: their own home (HOME, USERPROFILE), never the bridge's. */
const user = (): UserPlace => ({ platform: process.platform, home: homedir(), env: process.env });

/** Steward's id unless STEWARD_EXTENSION_ID names others (comma-separated). */
const defaultIds = (): string[] => (process.env.STEWARD_EXTENSION_ID || STEWARD_EXTENSION_ID).split(',');

const labels = (names: readonly BrowserName[]) => names.map((b) => BROWSER_LABELS[b]).join(', ');
const say = (line: string) => process.stdout.write(`${line}\n`);

const httpUrl = (p: number) => `http://127.0.0.1:${p}/mcp`;

/** Waits for SIGINT/SIGTERM. */
const untilSignal = () => new Promise<void>((resolve) => ['SIGINT', 'SIGTERM'].forEach((signal) => process.once(signal, () => resolve())));

async function serve(args: string[]): Promise<number> {
  const { values } = parse(args, serving);
  if (values.help) return help();
  const httpPort = port(values.port);
  const home = bridgeHome(values.home);
  const link = connectLink({ socketPath: socketPath(home), log });
  if (values.http && values['client-key-file']) throw new UsageError('--client-key-file is for one client (stdio); over HTTP each client is its own.');
  if (!values.http) {
    await serveStdio({ link, home, log, credential: credentialFile(values.credential), clientKey: clientKey(values['client-key-file']) });
    await link.close();
    return 0;
  }
  const server = await serveHttp({ link, home, log, port: httpPort, allowedOrigins: values['allow-origin'] ?? [] });
  log(`MCP over HTTP at ${server.url}; its bearer token is in ${home}/http-token (\`steward-bridge http-token\` prints it)`);
  await untilSignal();
  await server.close();
  await link.close();
  return 0;
}

async function host(args: string[]): Promise<number> {
  // Chrome passes the caller's origin first (and on Windows a --parent-window flag after it).
  const origin = args[0];
  if (!origin || origin === '--help' || origin === '-h') throw new UsageError('host needs the caller origin (the browser passes it).');
  return runHost({
    origin,
    home: bridgeHome(),
    extensionIds: defaultIds(),
    version: BRIDGE_VERSION,
    log,
    input: process.stdin,
    output: process.stdout,
  });
}

function installCommand(args: string[]): number {
  const { values } = parse(args, placement);
  if (values.help) return help();
  const userDataDir = values['user-data-dir'];
  const outcome = install({
    user: user(),
    browsers: browsers(values.browser) ?? 'all',
    userDataDir,
    home: values.home ?? bridgeHomePath(),
    givenIds: values['extension-id'] ?? [],
    defaultIds: defaultIds(),
    command: { nodePath: process.execPath, nodeFlags: process.execArgv, cliPath: realpathSync(process.argv[1]!) },
    reg: process.platform === 'win32' ? runReg : undefined,
  });
  if (!outcome.ok) {
    log(outcome.problem);
    return 1;
  }
  for (const change of outcome.changes) say(`${change.verb} ${change.what}${change.browsers.length ? ` (${labels(change.browsers)})` : ''}`);
  if (outcome.skipped.length) say(`skipped ${labels(outcome.skipped)}: not used by this user yet (no user data dir)`);
  say(installSummary(outcome, userDataDir));
  return 0;
}

function installSummary(outcome: Extract<InstallOutcome, { ok: true }>, userDataDir: string | undefined): string {
  const browsersDone = [...new Set(outcome.changes.flatMap((c) => c.browsers))];
  const where = userDataDir !== undefined ? `the profile ${userDataDir}` : labels(browsersDone);
  const ids = outcome.extensionIds.join(', ');
  return `Steward's native-messaging host is installed for ${where}${outcome.updated ? ' (updated in place)' : ''}, for extension id ${ids}; the browser starts it when Steward connects (open Steward's side panel, or restart the browser). Check with: steward-bridge doctor`;
}

function uninstallCommand(args: string[]): number {
  const { values } = parse(args, { 'user-data-dir': placement['user-data-dir'], browser: placement.browser });
  if (values.help) return help();
  const chosen = browsers(values.browser);
  const outcome = uninstall({
    user: user(),
    browsers: chosen === 'all' ? undefined : chosen,
    userDataDir: values['user-data-dir'],
    home: values.home ?? bridgeHomePath(),
    reg: process.platform === 'win32' ? runReg : undefined,
  });
  if (!outcome.ok) {
    log(outcome.problem);
    return 1;
  }
  if (outcome.note) log(outcome.note);
  for (const removal of outcome.removals) say(`${removal.verb} ${removal.what}${removal.why ? `: ${removal.why}` : ''}`);
  if (!outcome.removals.some((r) => r.verb === 'removed')) say('Nothing to remove.');
  return 0;
}

async function doctorCommand(args: string[]): Promise<number> {
  const { values } = parse(args, { ...placement, json: { type: 'boolean' } });
  if (values.help) return help();
  const userDataDir = values['user-data-dir'];
  const ids = extensionIds(values['extension-id'] ?? []);
  if (!ids.ok) {
    log(ids.problem);
    return 1;
  }
  const report = await doctor({
    user: user(),
    browsers: browsers(values.browser),
    userDataDir,
    home: values.home ?? bridgeHomePath(),
    givenIds: values['extension-id'] ?? [],
    defaultIds: defaultIds(),
    reg: process.platform === 'win32' ? runReg : undefined,
    probeHost,
    probeSocket,
    fixFlags: [...(values.home ? ['--home', values.home] : []), ...(userDataDir !== undefined ? ['--user-data-dir', userDataDir] : [])],
  });
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
  return report.ok ? 0 : 1;
}

async function httpToken(args: string[]): Promise<number> {
  const { values } = parse(args, { port: { type: 'string' }, client: { type: 'string' } });
  if (values.help) return help();
  const home = bridgeHome(values.home);
  const token = values.client ? await readOrCreateClientHttpToken(home, values.client) : await readOrCreateHttpToken(home);
  process.stdout.write(`URL: ${httpUrl(port(values.port))}\nAuthorization: Bearer ${token}\n`);
  return 0;
}

async function pair(args: string[]): Promise<number> {
  const { values } = parse(args, { credential: { type: 'string' }, name: { type: 'string' }, 'client-key-file': { type: 'string' } });
  if (values.help) return help();
  const credential = credentialFile(values.credential);
  if (!credential) throw new UsageError("pair needs the client's credential file: --credential FILE (or STEWARD_BRIDGE_CREDENTIAL).");
  const name = values.name ?? 'MCP client (paired from a terminal)';
  if (name.length < 1 || name.length > 120) throw new UsageError('--name must be 1 to 120 characters.');
  const key = clientKey(values['client-key-file']);
  const home = bridgeHome(values.home);
  const link = connectLink({ socketPath: socketPath(home), log });
  try {
    return await pairFromTerminal({ link, credential: path.resolve(credential), name, clientKey: key, log, say: (line) => process.stdout.write(`${line}\n`) });
  } finally {
    await link.close();
  }
}

async function status(args: string[]): Promise<number> {
  const { values } = parse(args, common);
  if (values.help) return help();
  const home = bridgeHome(values.home);
  const path = socketPath(home);
  if (await probeSocket(path)) {
    process.stdout.write(`Steward's host is listening on ${path}: the browser with Steward is connected.\n`);
    return 0;
  }
  process.stdout.write(
    `No host is listening on ${path}: the browser with Steward is not running, or the host is not installed (launcher expected at ${launcherPath(home)}; run \`steward-bridge install\`).\n`,
  );
  return 1;
}

function help(): number {
  process.stdout.write(USAGE);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv;
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`${BRIDGE_VERSION}\n`);
    return 0;
  }
  if (command.startsWith('-') && command !== '-h' && command !== '--help') return serve(argv);
  switch (command) {
    case 'serve':
      return serve(rest);
    case 'host':
      return host(rest);
    case 'install':
      return installCommand(rest);
    case 'uninstall':
      return uninstallCommand(rest);
    case 'doctor':
      return doctorCommand(rest);
    case 'http-token':
      return httpToken(rest);
    case 'status':
      return status(rest);
    case 'pair':
      return pair(rest);
    case 'audit':
      return runAudit(rest, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) });
    case 'config':
      return runConfig(rest, {
        place: { platform: process.platform, env: process.env, home: homedir() },
        cwd: process.cwd(),
        launcher: { node: process.execPath, flags: process.execArgv, cli: realpathSync(process.argv[1]!) },
        defaultPort: DEFAULT_PORT,
        httpUrl,
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      });
    case 'help':
    case '-h':
    case '--help':
      return help();
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}.`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      log(error.message);
      process.stderr.write(`\n${USAGE}`);
      process.exit(2);
    }
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
