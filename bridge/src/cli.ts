import { realpathSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { homedir } from 'node:os';
import { STEWARD_EXTENSION_ID } from '../../src/protocol/bridge.ts';
import { runConfig } from './config/command.ts';
import { probeSocket } from './host/private-socket.ts';
import { runHost } from './host/host.ts';
import { install, launcherPath, uninstall } from './install/install.ts';
import type { Browser } from './install/manifest-dirs.ts';
import { connectLink } from './link/socket-link.ts';
import { logToStderr as log } from './log.ts';
import { readOrCreateClientHttpToken, readOrCreateHttpToken, serveHttp, serveStdio } from './mcp/index.ts';
import { pairFromTerminal } from './mcp/pair-command.ts';
import { bridgeHome, socketPath } from './paths.ts';
import { USAGE } from './usage.ts';
import { BRIDGE_VERSION } from './version.ts';

const DEFAULT_PORT = 8787;

class UsageError extends Error {}

const common = { home: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;
const placement = { 'extension-id': { type: 'string' }, 'user-data-dir': { type: 'string' }, browser: { type: 'string' } } as const;
const serving = { http: { type: 'boolean' }, port: { type: 'string' }, 'allow-origin': { type: 'string', multiple: true }, credential: { type: 'string' } } as const;

/** The client's credential file: `--credential FILE`, else STEWARD_BRIDGE_CREDENTIAL (for clients whose config sets env rather than args). */
const credentialFile = (flag: string | undefined): string | undefined => flag || process.env.STEWARD_BRIDGE_CREDENTIAL || undefined;

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

function browser(value: string | undefined): Browser {
  if (value === undefined || value === 'chromium' || value === 'chrome' || value === 'all') return value ?? 'all';
  throw new UsageError(`--browser must be chromium, chrome or all, not ${value}.`);
}

const httpUrl = (p: number) => `http://127.0.0.1:${p}/mcp`;

/** Waits for SIGINT/SIGTERM. */
const untilSignal = () => new Promise<void>((resolve) => ['SIGINT', 'SIGTERM'].forEach((signal) => process.once(signal, () => resolve())));

async function serve(args: string[]): Promise<number> {
  const { values } = parse(args, serving);
  if (values.help) return help();
  const httpPort = port(values.port);
  const home = bridgeHome(values.home);
  const link = connectLink({ socketPath: socketPath(home), log });
  if (!values.http) {
    await serveStdio({ link, home, log, credential: credentialFile(values.credential) });
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
    extensionId: process.env.STEWARD_EXTENSION_ID || STEWARD_EXTENSION_ID,
    version: BRIDGE_VERSION,
    log,
    input: process.stdin,
    output: process.stdout,
  });
}

function installCommand(args: string[], remove: boolean): number {
  const { values } = parse(args, placement);
  if (values.help) return help();
  const where = { userDataDir: values['user-data-dir'], browser: browser(values.browser), home: undefined };
  const home = bridgeHome(values.home);
  const outcome = remove
    ? uninstall({ ...where, home })
    : install({
        ...where,
        home,
        extensionId: values['extension-id'] ?? (process.env.STEWARD_EXTENSION_ID || STEWARD_EXTENSION_ID),
        nodePath: process.execPath,
        nodeFlags: process.execArgv,
        cliPath: realpathSync(process.argv[1]!),
      });
  if (!outcome.ok) {
    log(outcome.problem);
    return 1;
  }
  const verb = remove ? 'removed' : 'wrote';
  if (outcome.files.length === 0) process.stdout.write(`Nothing to remove.\n`);
  for (const file of outcome.files) process.stdout.write(`${verb} ${file}\n`);
  if (!remove) process.stdout.write(`Steward's native-messaging host is installed; the browser starts it when Steward connects (restart the browser if it is open).\n`);
  return 0;
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
  const { values } = parse(args, { credential: { type: 'string' }, name: { type: 'string' } });
  if (values.help) return help();
  const credential = credentialFile(values.credential);
  if (!credential) throw new UsageError("pair needs the client's credential file: --credential FILE (or STEWARD_BRIDGE_CREDENTIAL).");
  const name = values.name ?? 'MCP client (paired from a terminal)';
  if (name.length < 1 || name.length > 120) throw new UsageError('--name must be 1 to 120 characters.');
  const home = bridgeHome(values.home);
  const link = connectLink({ socketPath: socketPath(home), log });
  try {
    return await pairFromTerminal({ link, credential: path.resolve(credential), name, log, say: (line) => process.stdout.write(`${line}\n`) });
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
      return installCommand(rest, false);
    case 'uninstall':
      return installCommand(rest, true);
    case 'http-token':
      return httpToken(rest);
    case 'status':
      return status(rest);
    case 'pair':
      return pair(rest);
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
