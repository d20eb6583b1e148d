import { mkdir, readdir, readFile, stat, symlink, writeFile, lstat, chmod } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeToml, parseToml } from '../../../bridge/src/config/toml-config.ts';
import { configWorld, type ConfigWorld } from './config-harness.ts';

/**
 * `steward-bridge config <client> --write` merges the bridge's entry into the client's own file:
 * everything else in it is kept, a second write replaces the entry rather than adding one, the old
 * file is kept as a backup, and a file that is not valid JSON or TOML is refused and left untouched.
 */

let world: ConfigWorld;
beforeEach(async () => {
  world = await configWorld();
});
afterEach(() => world.remove());

const mode = async (file: string) => (await stat(file)).mode & 0o777;
const backupsIn = async (dir: string) => (await readdir(dir)).filter((f) => f.includes('.bak-'));

async function write(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return world.run([...args, '--write']);
}

describe('JSON clients', () => {
  it('creates the file (and its folder) when the client has none yet, readable by the person alone', async () => {
    const file = path.join(world.home, '.cursor', 'mcp.json');
    const result = await write(['cursor']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Wrote "steward" into ${file} (under "mcpServers").`);
    expect(result.stdout).toMatch(/Restart Cursor\. Its first call to Steward asks to pair/);
    const json = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, { command: string }> };
    expect(Object.keys(json.mcpServers)).toEqual(['steward']);
    expect(await mode(file)).toBe(0o600);
    expect(await backupsIn(path.dirname(file))).toEqual([]);
  });

  it("keeps Claude Desktop's other servers and settings, and the old file as a backup", async () => {
    const file = path.join(world.home, '.config', 'Claude', 'claude_desktop_config.json');
    await mkdir(path.dirname(file), { recursive: true });
    const original = `{\n    "globalShortcut": "Ctrl+Space",\n    "mcpServers": {\n        "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/ann"] }\n    }\n}\n`;
    await writeFile(file, original, { mode: 0o644 });

    const result = await write(['claude-desktop']);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown> & { mcpServers: Record<string, unknown> };
    expect(json.globalShortcut).toBe('Ctrl+Space');
    expect(json.mcpServers.files).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ann'] });
    expect(Object.keys(json.mcpServers)).toEqual(['files', 'steward']);
    expect(await readFile(file, 'utf8')).toMatch(/^\{\n {4}"globalShortcut"/); // its own four-space indent
    expect(await mode(file)).toBe(0o644); // a stdio entry holds no secret: the file's mode is the person's

    const [backup] = await backupsIn(path.dirname(file));
    expect(result.stdout).toContain(`the previous file is kept as ${path.join(path.dirname(file), backup!)}`);
    expect(await readFile(path.join(path.dirname(file), backup!), 'utf8')).toBe(original);
    expect(await mode(path.join(path.dirname(file), backup!))).toBe(0o600);
  });

  it('a second write replaces the entry (stdio, then HTTP) instead of adding another; the same write again changes nothing', async () => {
    const file = path.join(world.home, '.codeium', 'windsurf', 'mcp_config.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ mcpServers: { other: { serverUrl: 'https://example.test/mcp' } } }));

    expect((await write(['windsurf'])).code).toBe(0);
    expect((await write(['windsurf', '--transport', 'http'])).code).toBe(0);
    const text = await readFile(file, 'utf8');
    const json = JSON.parse(text) as { mcpServers: Record<string, Record<string, unknown>> };
    expect(Object.keys(json.mcpServers)).toEqual(['other', 'steward']);
    expect(Object.keys(json.mcpServers.steward!).sort()).toEqual(['headers', 'serverUrl']); // nothing of the stdio entry is left
    expect(text.match(/"steward"/g)).toHaveLength(1);

    const backups = (await backupsIn(path.dirname(file))).length;
    const again = await write(['windsurf', '--transport', 'http']);
    expect(again.stdout).toContain('already has this "steward" entry; nothing changed.');
    expect(await readFile(file, 'utf8')).toBe(text);
    expect((await backupsIn(path.dirname(file))).length).toBe(backups);
  });

  it("keeps the rest of Claude Code's ~/.claude.json (its projects and settings)", async () => {
    const file = path.join(world.home, '.claude.json');
    const state = {
      numStartups: 12,
      projects: { '/home/ann/app': { mcpServers: { local: { command: 'x' } }, allowedTools: [] } },
      mcpServers: { docs: { type: 'http', url: 'https://docs.test/mcp' } },
    };
    await writeFile(file, JSON.stringify(state, null, 2), { mode: 0o600 });
    expect((await write(['claude-code'])).code).toBe(0);
    const json = JSON.parse(await readFile(file, 'utf8')) as typeof state & { mcpServers: Record<string, unknown> };
    expect(json.numStartups).toBe(12);
    expect(json.projects).toEqual(state.projects);
    expect(json.mcpServers.docs).toEqual(state.mcpServers.docs);
    expect(json.mcpServers.steward).toMatchObject({ type: 'stdio' });
  });

  it('writes VS Code’s workspace file when --config names it', async () => {
    const result = await write(['vscode', '--config', '.vscode/mcp.json']);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(await readFile(path.join(world.home, '.vscode', 'mcp.json'), 'utf8')) as { servers: { steward: { type: string } } };
    expect(json.servers.steward.type).toBe('stdio');
  });

  it('an HTTP entry holds a bearer: a file others could read is made private, and says so', async () => {
    const file = path.join(world.home, '.cursor', 'mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{}\n');
    await chmod(file, 0o644);
    const result = await write(['cursor', '--transport', 'http']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Only you may read it now: it holds the bearer.');
    expect(result.stdout).toContain('Keep the HTTP server running: steward-bridge serve --http.');
    expect(await mode(file)).toBe(0o600);
  });

  it('writes through a symlinked config (a dotfiles checkout), leaving the link in place', async () => {
    const real = path.join(world.home, 'dotfiles', 'cursor-mcp.json');
    const link = path.join(world.home, '.cursor', 'mcp.json');
    await mkdir(path.dirname(real), { recursive: true });
    await mkdir(path.dirname(link), { recursive: true });
    await writeFile(real, '{ "mcpServers": {} }\n');
    await symlink(real, link);
    expect((await write(['cursor'])).code).toBe(0);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(Object.keys((JSON.parse(await readFile(real, 'utf8')) as { mcpServers: object }).mcpServers)).toEqual(['steward']);
  });

  it('a path it cannot use (its folder is a file) gives one sentence and exit 1, and changes nothing', async () => {
    await writeFile(path.join(world.home, 'not-a-dir'), 'x');
    const result = await write(['cursor', '--config', 'not-a-dir/mcp.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^steward-bridge: \S+not-a-dir\/mcp\.json cannot be read \(ENOTDIR\); nothing was changed\.\n$/);
    expect(await readFile(path.join(world.home, 'not-a-dir'), 'utf8')).toBe('x');
  });

  it.each([
    ['comments (JSONC)', '{\n  // mine\n  "mcpServers": {}\n}\n', /is not valid JSON/],
    ['a trailing comma', '{ "mcpServers": { "a": { "command": "x" }, } }', /is not valid JSON/],
    ['an array at the top', '[]', /not an object at the top/],
    ['mcpServers that is not an object', '{ "mcpServers": ["a"] }', /its "mcpServers" is not an object/],
  ])('refuses a file with %s: one sentence, exit 1, the file untouched and no backup', async (_what, original, message) => {
    const file = path.join(world.home, '.cursor', 'mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, original);
    const result = await write(['cursor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`${file.replaceAll('/', '\\/')} was left as it is: .*`));
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(await backupsIn(path.dirname(file))).toEqual([]);
  });
});

describe("Codex's config.toml", () => {
  const file = () => path.join(world.home, '.codex', 'config.toml');
  const ORIGINAL = [
    '# Codex settings',
    'model = "o4-mini"',
    'approval_policy = "on-request"',
    '',
    '[mcp_servers.docs]',
    'command = "npx"',
    'args = ["-y", "docs-mcp"] # pinned',
    '',
    '[mcp_servers.steward]',
    'command = "/old/node"',
    'args = ["/old/cli.js", "serve"]',
    '',
    '[mcp_servers.steward.env]',
    'OLD = "1"',
    '',
    '[profiles.fast]',
    'model = "gpt-5-mini"',
    '',
  ].join('\n');

  it('replaces our table (and its sub-tables) where it was, keeping every other line as it was', async () => {
    await mkdir(path.dirname(file()), { recursive: true });
    await writeFile(file(), ORIGINAL);
    const result = await write(['codex']);
    expect(result.code, result.stderr).toBe(0);
    const text = await readFile(file(), 'utf8');
    const lines = text.split('\n');
    const start = lines.indexOf('[mcp_servers.steward]');
    expect(lines.slice(0, start)).toEqual(ORIGINAL.split('\n').slice(0, 8)); // up to our table, byte for byte
    expect(lines.slice(start + 4)).toEqual(['[profiles.fast]', 'model = "gpt-5-mini"', '']); // and after it
    expect(text).not.toContain('OLD');
    const parsed = parseToml(text) as { model: string; profiles: object; mcp_servers: Record<string, { command: string; args: string[] }> };
    expect(parsed.model).toBe('o4-mini');
    expect(parsed.profiles).toEqual({ fast: { model: 'gpt-5-mini' } });
    expect(parsed.mcp_servers.docs).toEqual({ command: 'npx', args: ['-y', 'docs-mcp'] });
    expect(parsed.mcp_servers.steward).toEqual({ command: '/opt/node 20/bin/node', args: expect.arrayContaining(['serve', '--credential']) });
  });

  it('a second write replaces the table rather than adding one; stdio then HTTP leaves only url and http_headers', async () => {
    expect((await write(['codex'])).code).toBe(0);
    expect((await write(['codex', '--transport', 'http'])).code).toBe(0);
    const text = await readFile(file(), 'utf8');
    expect(text.match(/\[mcp_servers\.steward\]/g)).toHaveLength(1);
    const steward = (parseToml(text) as { mcp_servers: { steward: object } }).mcp_servers.steward;
    expect(Object.keys(steward).sort()).toEqual(['http_headers', 'url']);
    expect(await mode(file())).toBe(0o600);
  });

  it('creates ~/.codex/config.toml when there is none', async () => {
    expect((await write(['codex'])).code).toBe(0);
    expect(await readFile(file(), 'utf8')).toMatch(/^\[mcp_servers\.steward\]\ncommand = "\/opt\/node 20\/bin\/node"\nargs = \[/);
  });

  it.each([
    ['is not valid TOML', 'model = "o4-mini\n[mcp_servers.docs]\n', /is not valid TOML \(line 1, column \d+\)/],
    ['defines our server inline', 'mcp_servers = { steward = { command = "x" } }\n', /does not edit/],
    ['defines our server with dotted keys', 'mcp_servers.steward.command = "x"\n', /does not edit/],
    ['defines it as an array of tables', '[[mcp_servers.steward]]\ncommand = "x"\n', /does not edit/],
  ])('refuses a file that %s: exit 1, untouched, no backup', async (_what, original, message) => {
    await mkdir(path.dirname(file()), { recursive: true });
    await writeFile(file(), original);
    const result = await write(['codex']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(await readFile(file(), 'utf8')).toBe(original);
    expect(await backupsIn(path.dirname(file()))).toEqual([]);
  });

  it('finds our table however its header is quoted or spaced, and keeps CRLF line ends', () => {
    const original = 'a = 1\r\n\r\n[ mcp_servers . "steward" ] # ours\r\ncommand = "old"\r\n\r\n[b]\r\nc = 2\r\n';
    const merged = mergeToml(original, 'mcp_servers', 'steward', { command: 'new', args: ['x'] });
    expect(merged).toEqual({ ok: true, text: 'a = 1\r\n\r\n[mcp_servers.steward]\r\ncommand = "new"\r\nargs = ["x"]\r\n\r\n[b]\r\nc = 2\r\n' });
  });

  it('writes keys and strings TOML must quote, and reads them back the same', () => {
    const entry = { url: 'http://127.0.0.1:1/mcp', http_headers: { Authorization: 'Bearer a"b\\c', 'X-Odd Key': 'tab\there' } };
    const merged = mergeToml(undefined, 'mcp_servers', 'steward', entry);
    expect(merged.ok).toBe(true);
    expect(parseToml((merged as { text: string }).text)).toEqual({ mcp_servers: { steward: entry } });
  });
});
