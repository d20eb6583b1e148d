import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENTS, type Place } from '../../../bridge/src/config/clients.ts';
import { parseToml } from '../../../bridge/src/config/toml-config.ts';
import { HttpBearers } from '../../../bridge/src/mcp/http-token.ts';
import { CLI_PATH, configWorld, NODE, type ConfigWorld } from './config-harness.ts';

/**
 * What `steward-bridge config <client>` prints is what that client reads: parsed back as the
 * client parses it (JSON or TOML), the fields it looks at name this bridge, with the client's own
 * credential file (stdio) or its own bearer (Streamable HTTP).
 */

let world: ConfigWorld;
beforeEach(async () => {
  world = await configWorld();
});
afterEach(() => world.remove());

const credential = (client: string) => path.join(world.bridgeHome, 'credentials', `${client}.json`);
const launch = (client: string) => ({ command: NODE, args: [CLI_PATH, 'serve', '--credential', credential(client)] });
const bearerOf = (header: string) => /^Bearer (\S+)$/.exec(header)![1]!;

async function printed(args: string[]): Promise<string> {
  const result = await world.run(args);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe('stdio: the client starts this bridge with its own credential file', () => {
  it('Claude Desktop: mcpServers.steward { command, args }', async () => {
    const json = JSON.parse(await printed(['claude-desktop']));
    expect(json).toEqual({ mcpServers: { steward: launch('claude-desktop') } });
  });

  it('Claude Code: mcpServers.steward { type: "stdio", command, args, env }, and the `claude mcp add` line that writes the same', async () => {
    const result = await world.run(['claude-code']);
    expect(JSON.parse(result.stdout)).toEqual({ mcpServers: { steward: { type: 'stdio', ...launch('claude-code'), env: {} } } });
    expect(result.stderr).toContain(`claude mcp add --scope user --transport stdio steward -- '${NODE}' '${CLI_PATH}' serve --credential ${credential('claude-code')}`);
  });

  it('Cursor: mcpServers.steward { command, args }', async () => {
    expect(JSON.parse(await printed(['cursor']))).toEqual({ mcpServers: { steward: launch('cursor') } });
  });

  it('VS Code: servers.steward { type: "stdio", command, args }', async () => {
    expect(JSON.parse(await printed(['vscode']))).toEqual({ servers: { steward: { type: 'stdio', ...launch('vscode') } } });
  });

  it('Windsurf: mcpServers.steward { command, args }', async () => {
    expect(JSON.parse(await printed(['windsurf']))).toEqual({ mcpServers: { steward: launch('windsurf') } });
  });

  it('Codex: the TOML table [mcp_servers.steward] with command and args, paths with spaces and quotes intact', async () => {
    const node = `/opt/n"o\\de 20/node`;
    const result = await world.run(['codex'], { launcher: { node, flags: ['--no-warnings'], cli: CLI_PATH } });
    expect(result.stdout.startsWith('[mcp_servers.steward]\n')).toBe(true);
    expect(parseToml(result.stdout)).toEqual({
      mcp_servers: { steward: { command: node, args: ['--no-warnings', CLI_PATH, 'serve', '--credential', credential('codex')] } },
    });
  });

  it('each client gets its own credential file, in the bridge home', async () => {
    const files = new Set<string>();
    for (const id of ['claude-desktop', 'cursor', 'windsurf']) {
      const args = (JSON.parse(await printed([id])) as { mcpServers: { steward: { args: string[] } } }).mcpServers.steward.args;
      files.add(args[args.indexOf('--credential') + 1]!);
    }
    expect(files.size).toBe(3);
    for (const file of files) expect(path.dirname(file)).toBe(path.join(world.bridgeHome, 'credentials'));
  });

  it('a bridge home other than the one serve finds by itself is named on the launch line (--home)', async () => {
    const other = path.join(world.home, 'elsewhere');
    const json = JSON.parse(await printed(['cursor', '--home', other])) as { mcpServers: { steward: { args: string[] } } };
    expect(json.mcpServers.steward.args).toEqual([CLI_PATH, 'serve', '--credential', path.join(other, 'credentials', 'cursor.json'), '--home', other]);
  });

  it('warns when the bridge runs from npx’s cache, whose path may not last', async () => {
    const result = await world.run(['cursor'], { launcher: { node: NODE, flags: [], cli: '/root/.npm/_npx/1a2b/node_modules/steward-bridge/bin/steward-bridge.js' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/runs from npx's cache .*\(npm install -g steward-bridge\)/);
  });
});

describe('Streamable HTTP: the URL and a bearer of the client’s own, which the HTTP server accepts', () => {
  async function bearerAccepted(bearer: string): Promise<string | undefined> {
    const bearers = new HttpBearers(world.bridgeHome);
    await bearers.load();
    return bearers.identify(`Bearer ${bearer}`);
  }

  it('Claude Code: { type: "http", url, headers.Authorization }', async () => {
    const entry = (JSON.parse(await printed(['claude-code', '--transport', 'http'])) as { mcpServers: { steward: { type: string; url: string; headers: { Authorization: string } } } }).mcpServers
      .steward;
    expect(entry).toMatchObject({ type: 'http', url: 'http://127.0.0.1:8787/mcp' });
    expect(await bearerAccepted(bearerOf(entry.headers.Authorization))).toBe('client:Claude Code');
  });

  it('Cursor: { url, headers.Authorization }', async () => {
    const entry = (JSON.parse(await printed(['cursor', '--transport', 'http', '--port', '9911'])) as { mcpServers: { steward: { url: string; headers: { Authorization: string } } } }).mcpServers
      .steward;
    expect(Object.keys(entry).sort()).toEqual(['headers', 'url']);
    expect(entry.url).toBe('http://127.0.0.1:9911/mcp');
    expect(await bearerAccepted(bearerOf(entry.headers.Authorization))).toBe('client:Cursor');
  });

  it('VS Code: servers.steward { type: "http", url, headers.Authorization }', async () => {
    const entry = (JSON.parse(await printed(['vscode', '--transport', 'http'])) as { servers: { steward: { type: string; url: string; headers: { Authorization: string } } } }).servers.steward;
    expect(entry).toMatchObject({ type: 'http', url: 'http://127.0.0.1:8787/mcp' });
    expect(await bearerAccepted(bearerOf(entry.headers.Authorization))).toBe('client:VS Code');
  });

  it('Windsurf: { serverUrl, headers.Authorization } (its key for a remote server)', async () => {
    const entry = (JSON.parse(await printed(['windsurf', '--transport', 'http'])) as { mcpServers: { steward: { serverUrl: string; headers: { Authorization: string } } } }).mcpServers.steward;
    expect(entry.serverUrl).toBe('http://127.0.0.1:8787/mcp');
    expect(await bearerAccepted(bearerOf(entry.headers.Authorization))).toBe('client:Windsurf');
  });

  it('Codex: [mcp_servers.steward] url and http_headers.Authorization', async () => {
    const table = (parseToml(await printed(['codex', '--transport', 'http'])) as { mcp_servers: { steward: { url: string; http_headers: { Authorization: string } } } }).mcp_servers.steward;
    expect(table.url).toBe('http://127.0.0.1:8787/mcp');
    expect(await bearerAccepted(bearerOf(table.http_headers.Authorization))).toBe('client:Codex');
  });

  it('each client has its own bearer, the same on every run', async () => {
    const header = async (id: string) =>
      (JSON.parse(await printed([id, '--transport', 'http'])) as { mcpServers: { steward: { headers: { Authorization: string } } } }).mcpServers.steward.headers.Authorization;
    const cursor = await header('cursor');
    expect(await header('windsurf')).not.toBe(cursor);
    expect(await header('cursor')).toBe(cursor);
    const token = (await readFile(path.join(world.bridgeHome, 'http-token'), 'utf8').catch(() => '')).trim();
    expect(bearerOf(cursor)).not.toBe(token);
  });

  it('Claude Desktop, whose config file starts local servers only, is refused with a sentence and exit 1', async () => {
    const result = await world.run(['claude-desktop', '--transport', 'http']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/Claude Desktop's config file starts local \(stdio\) servers only/);
  });
});

describe('where each client keeps its config, per OS', () => {
  const on = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv = {}): Place => ({ platform, env, home: platform === 'win32' ? 'C:\\Users\\ann' : platform === 'darwin' ? '/Users/ann' : '/home/ann' });
  const appData = { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' };

  it('Claude Desktop: Application Support on macOS, %APPDATA% on Windows, ~/.config on Linux', () => {
    expect(CLIENTS['claude-desktop'].defaultPath(on('darwin'))).toBe('/Users/ann/Library/Application Support/Claude/claude_desktop_config.json');
    expect(CLIENTS['claude-desktop'].defaultPath(on('win32', appData))).toBe('C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
    expect(CLIENTS['claude-desktop'].defaultPath(on('linux'))).toBe('/home/ann/.config/Claude/claude_desktop_config.json');
    expect(CLIENTS['claude-desktop'].defaultPath(on('linux', { XDG_CONFIG_HOME: '/home/ann/cfg' }))).toBe('/home/ann/cfg/Claude/claude_desktop_config.json');
  });

  it('VS Code: the user profile’s mcp.json on each OS', () => {
    expect(CLIENTS.vscode.defaultPath(on('darwin'))).toBe('/Users/ann/Library/Application Support/Code/User/mcp.json');
    expect(CLIENTS.vscode.defaultPath(on('win32', appData))).toBe('C:\\Users\\ann\\AppData\\Roaming\\Code\\User\\mcp.json');
    expect(CLIENTS.vscode.defaultPath(on('linux'))).toBe('/home/ann/.config/Code/User/mcp.json');
  });

  it('Claude Code, Cursor, Windsurf and Codex: dot-folders in the home, and the env vars that move them', () => {
    expect(CLIENTS['claude-code'].defaultPath(on('linux'))).toBe('/home/ann/.claude.json');
    expect(CLIENTS['claude-code'].defaultPath(on('linux', { CLAUDE_CONFIG_DIR: '/srv/claude' }))).toBe('/srv/claude/.claude.json');
    expect(CLIENTS.cursor.defaultPath(on('darwin'))).toBe('/Users/ann/.cursor/mcp.json');
    expect(CLIENTS.cursor.defaultPath(on('win32'))).toBe('C:\\Users\\ann\\.cursor\\mcp.json');
    expect(CLIENTS.windsurf.defaultPath(on('linux'))).toBe('/home/ann/.codeium/windsurf/mcp_config.json');
    expect(CLIENTS.codex.defaultPath(on('linux'))).toBe('/home/ann/.codex/config.toml');
    expect(CLIENTS.codex.defaultPath(on('linux', { CODEX_HOME: '/srv/codex' }))).toBe('/srv/codex/config.toml');
  });

  it('the printed hint names the file the client reads', async () => {
    const result = await world.run(['windsurf']);
    expect(result.stderr).toContain(`Windsurf reads this from ${path.join(world.home, '.codeium', 'windsurf', 'mcp_config.json')} (under "mcpServers")`);
  });
});

describe('bad input', () => {
  it.each([
    [['nope'], /"nope" is not a client this command knows; use one of claude-desktop, claude-code, cursor, vscode, windsurf, codex/],
    [[], /config needs the client/],
    [['cursor', '--transport', 'sse'], /--transport must be stdio or http, not sse/],
    [['cursor', '--transport', 'http', '--port', '0'], /--port 0 is not a port number/],
    [['cursor', '--bogus'], /Unknown option '--bogus'/],
  ])('%j: one sentence and exit 2', async (args, message) => {
    const result = await world.run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });
});
