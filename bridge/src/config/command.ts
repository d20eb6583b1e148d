import path from 'node:path';
import { parseArgs } from 'node:util';
import { readOrCreateClientHttpToken } from '../mcp/http-token.ts';
import { bridgeHomePath, ensurePrivateDir } from '../paths.ts';
import { CLIENT_IDS, CLIENTS, isClientId, SERVER_NAME, type ClientFormat, type HttpTarget, type Place, type ServerEntry, type StdioLaunch, type Transport } from './clients.ts';
import { jsonSnippet, mergeJson } from './json-config.ts';
import { mergeToml, tomlTable } from './toml-config.ts';
import { writeMerged } from './write.ts';

/**
 * `steward-bridge config <client> [--transport stdio|http] [--write] [--config PATH] [--port N] [--home DIR]`:
 * the client's own config entry for the bridge, printed (stdout holds the snippet alone; where it
 * goes is said on stderr), or with --write merged into the client's config file.
 */

const CONFIG_USAGE = `steward-bridge config <client> [--transport stdio|http] [--write] [--config PATH] [--port 8787] [--home DIR]
  <client>: ${CLIENT_IDS.join(', ')}
  --transport  stdio (default): the client starts the bridge, with its own credential file;
               http: the client connects to \`steward-bridge serve --http\` with its own bearer
  --write      merges the entry into the client's config file (a backup of the old file is kept beside it)
  --config     that file instead of the client's user-level one (for example .vscode/mcp.json or .mcp.json)
`;

export interface ConfigContext {
  place: Place;
  cwd: string;
  /** How this bridge runs now, which is how the client will start it. */
  launcher: { node: string; flags: string[]; cli: string };
  defaultPort: number;
  httpUrl(port: number): string;
  out(text: string): void;
  err(text: string): void;
}

class ConfigUsageError extends Error {}

function options(args: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: { transport: { type: 'string' }, write: { type: 'boolean' }, config: { type: 'string' }, port: { type: 'string' }, home: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new ConfigUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true as const };
  if (positionals.length !== 1)
    throw new ConfigUsageError(positionals.length === 0 ? 'config needs the client: one of ' + CLIENT_IDS.join(', ') + '.' : `config takes one client, not ${positionals.join(' ')}.`);
  const id = positionals[0]!;
  if (!isClientId(id)) throw new ConfigUsageError(`${JSON.stringify(id)} is not a client this command knows; use one of ${CLIENT_IDS.join(', ')}.`);
  const transport = values.transport ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'http') throw new ConfigUsageError(`--transport must be stdio or http, not ${transport}.`);
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConfigUsageError(`--port ${values.port} is not a port number.`);
    if (transport !== 'http') throw new ConfigUsageError('--port goes with --transport http.');
  }
  if (values.config === '') throw new ConfigUsageError('--config needs a file path.');
  return { help: false as const, client: CLIENTS[id], transport: transport as Transport, write: values.write ?? false, config: values.config, port, home: values.home };
}

/** The client's own credential file (a stdio client's pairing; credentials.ts), in the bridge's private home. */
const credentialFile = (home: string, client: ClientFormat) => path.join(home, 'credentials', `${client.id}.json`);

/** The launch line: this Node (absolute), its flags, this CLI (absolute), `serve` with the client's own credential file. */
function stdioLaunch(context: ConfigContext, client: ClientFormat, home: string, explicitHome: boolean): StdioLaunch {
  return {
    command: context.launcher.node,
    args: [...context.launcher.flags, context.launcher.cli, 'serve', '--credential', credentialFile(home, client), ...(explicitHome ? ['--home', home] : [])],
  };
}

function snippet(client: ClientFormat, entry: ServerEntry): string {
  return client.format === 'toml' ? tomlTable(client.container, SERVER_NAME, entry) : jsonSnippet(client.container, SERVER_NAME, entry);
}

function merge(client: ClientFormat, entry: ServerEntry) {
  return (existing: string | undefined) => (client.format === 'toml' ? mergeToml : mergeJson)(existing, client.container, SERVER_NAME, entry);
}

/** What to do once the entry is in place, in the person's words. */
function nextSteps(client: ClientFormat, transport: Transport, home: string, port: number, defaultPort: number): string[] {
  const pair = `Restart ${client.title}. Its first call to Steward asks to pair: type the code it shows into Steward's side panel (Approvals).`;
  if (transport === 'stdio') return [`${pair} The pairing is kept in ${credentialFile(home, client)}.`];
  return [
    `Keep the HTTP server running: steward-bridge serve --http${port === defaultPort ? '' : ` --port ${port}`}. The bearer is ${client.title}'s own (\`steward-bridge http-token --client "${client.title}"\` prints it again).`,
    pair,
  ];
}

/** The entry (and the client's own command for it, if it has one), or why this client cannot take it. */
async function entryFor(
  client: ClientFormat,
  transport: Transport,
  context: ConfigContext,
  home: string,
  explicitHome: boolean,
  port: number,
): Promise<{ entry: ServerEntry; alternative?: string } | { problem: string }> {
  if (transport === 'stdio') {
    const launch = stdioLaunch(context, client, home, explicitHome);
    return { entry: client.stdio(launch), alternative: client.alternative?.stdio(launch) };
  }
  if (!client.http) return { problem: client.noHttp ?? `${client.title} cannot take a Streamable HTTP server.` };
  ensurePrivateDir(home);
  const target: HttpTarget = { url: context.httpUrl(port), bearer: await readOrCreateClientHttpToken(home, client.title) };
  return { entry: client.http(target), alternative: client.alternative?.http(target) };
}

export async function runConfig(args: string[], context: ConfigContext): Promise<number> {
  let opts;
  try {
    opts = options(args);
  } catch (error) {
    if (!(error instanceof ConfigUsageError)) throw error;
    context.err(`steward-bridge: ${error.message}\n\n${CONFIG_USAGE}`);
    return 2;
  }
  if (opts.help) {
    context.out(CONFIG_USAGE);
    return 0;
  }
  const { client, transport } = opts;
  const { place } = context;
  // The home `serve` finds by itself when the client starts it without our environment; any other is named on the launch line.
  const plainHome = bridgeHomePath({ ...place.env, STEWARD_BRIDGE_HOME: '' }, place.platform, place.home);
  const home = path.resolve(context.cwd, opts.home ?? bridgeHomePath(place.env, place.platform, place.home));
  const port = opts.port ?? context.defaultPort;

  const built = await entryFor(client, transport, context, home, home !== plainHome, port);
  if ('problem' in built) {
    context.err(`steward-bridge: ${built.problem}\n`);
    return 1;
  }
  const { entry, alternative } = built;

  const file = opts.config ? path.resolve(context.cwd, opts.config) : client.defaultPath(place);
  const where = (f: string) => (client.format === 'toml' ? `${f} (its [${client.container}.${SERVER_NAME}] table)` : `${f} (under "${client.container}")`);
  if (/[\\/]_npx[\\/]/.test(context.launcher.cli) && transport === 'stdio') {
    context.err(
      `steward-bridge: this steward-bridge runs from npx's cache (${context.launcher.cli}), which npm may clear; for a launch line that lasts, install it (npm install -g steward-bridge) and run this command again.\n`,
    );
  }

  if (!opts.write) {
    context.out(snippet(client, entry));
    const also = alternative ? `\nOr let ${client.title} add it: ${alternative}` : '';
    context.err(
      `${client.title} reads this from ${where(file)}; \`steward-bridge config ${client.id}${transport === 'http' ? ' --transport http' : ''} --write\` adds it there, keeping everything else.${also}\n`,
    );
    return 0;
  }

  const outcome = await writeMerged(file, merge(client, entry), { secret: transport === 'http' });
  if (!outcome.ok) {
    context.err(`steward-bridge: ${outcome.problem}\n`);
    return 1;
  }
  const written = outcome.changed
    ? `Wrote "${SERVER_NAME}" into ${where(outcome.file)}${outcome.backup ? `; the previous file is kept as ${outcome.backup}` : ''}.${outcome.madePrivate ? ' Only you may read it now: it holds the bearer.' : ''}`
    : `${outcome.file} already has this "${SERVER_NAME}" entry; nothing changed.`;
  context.out(`${[written, ...nextSteps(client, transport, home, port, context.defaultPort)].join('\n')}\n`);
  return 0;
}
