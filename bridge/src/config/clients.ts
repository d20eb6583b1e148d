import path from 'node:path';

/**
 * The MCP clients `steward-bridge config` writes for: where each keeps its MCP servers (per OS,
 * user-level, so a personal path or bearer never lands in a shared project file) and the entry it
 * reads for a stdio server (a command it launches) and for a Streamable HTTP server (a URL and a
 * header). Each format was checked against the client's own documentation, cited per client.
 */

/** The name the bridge is listed under in every client. */
export const SERVER_NAME = 'steward';

export type Transport = 'stdio' | 'http';

/** How the client starts the bridge: this Node, with its flags, running this CLI. */
export interface StdioLaunch {
  command: string;
  args: string[];
}

export interface HttpTarget {
  url: string;
  bearer: string;
}

/** Where the process runs: the per-OS default paths depend on these. */
export interface Place {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The user's home directory. */
  home: string;
}

/** An MCP server entry: all any client reads is strings, lists of strings and maps of strings. */
export type ServerEntry = Record<string, string | string[] | Record<string, string>>;

export interface ClientFormat {
  /** The id on the command line. */
  id: ClientId;
  /** The client's name, as the person knows it (and the name its HTTP bearer is kept under). */
  title: string;
  format: 'json' | 'toml';
  /** The key that holds the servers: `mcpServers`, VS Code's `servers`, Codex's `mcp_servers`. */
  container: string;
  /** The user-level config file. */
  defaultPath(place: Place): string;
  stdio(launch: StdioLaunch): ServerEntry;
  /** Missing where the client's config file cannot name a Streamable HTTP server (`noHttp` says why). */
  http?(target: HttpTarget): ServerEntry;
  /** Why `http` is missing, in one sentence. */
  noHttp?: string;
  /** The client's own command that adds the same entry, for the person who prefers it. */
  alternative?: { stdio(launch: StdioLaunch): string; http(target: HttpTarget): string };
}

export const CLIENT_IDS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'codex'] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

const bearerHeader = (target: HttpTarget) => ({ Authorization: `Bearer ${target.bearer}` });

/** The per-user application-data dir: %APPDATA% on Windows, ~/Library/Application Support on macOS, $XDG_CONFIG_HOME (~/.config) elsewhere. */
function appData(place: Place): string {
  if (place.platform === 'win32') return place.env.APPDATA || path.win32.join(place.home, 'AppData', 'Roaming');
  if (place.platform === 'darwin') return path.posix.join(place.home, 'Library', 'Application Support');
  return place.env.XDG_CONFIG_HOME || path.posix.join(place.home, '.config');
}

const join = (place: Place, ...parts: string[]) => (place.platform === 'win32' ? path.win32.join(...parts) : path.posix.join(...parts));

/** A command line for a POSIX shell: each word single-quoted unless it is plainly safe. */
function shellLine(words: string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(' ');
}

export const CLIENTS: Record<ClientId, ClientFormat> = {
  // Claude Desktop: claude_desktop_config.json, `mcpServers` → { command, args, env }; macOS
  // ~/Library/Application Support/Claude/, Windows %APPDATA%\Claude\ (modelcontextprotocol.io/quickstart/user).
  // There is no Linux build from Anthropic; the community builds read ~/.config/Claude/. Its config
  // file starts local servers only: remote ones are added as connectors in its settings.
  'claude-desktop': {
    id: 'claude-desktop',
    title: 'Claude Desktop',
    format: 'json',
    container: 'mcpServers',
    defaultPath: (place) => join(place, appData(place), 'Claude', 'claude_desktop_config.json'),
    stdio: (launch) => ({ command: launch.command, args: launch.args }),
    noHttp: "Claude Desktop's config file starts local (stdio) servers only; use --transport stdio (the default).",
  },
  // Claude Code: user scope is `mcpServers` at the top of ~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json
  // when set); project scope is .mcp.json (pass --config .mcp.json). Entries { type: "stdio", command,
  // args, env } or { type: "http", url, headers }; `claude mcp add --scope user --transport http|stdio`
  // writes the same (code.claude.com/docs/en/mcp).
  'claude-code': {
    id: 'claude-code',
    title: 'Claude Code',
    format: 'json',
    container: 'mcpServers',
    defaultPath: (place) => join(place, place.env.CLAUDE_CONFIG_DIR || place.home, '.claude.json'),
    stdio: (launch) => ({ type: 'stdio', command: launch.command, args: launch.args, env: {} }),
    http: (target) => ({ type: 'http', url: target.url, headers: bearerHeader(target) }),
    alternative: {
      stdio: (launch) => shellLine(['claude', 'mcp', 'add', '--scope', 'user', '--transport', 'stdio', SERVER_NAME, '--', launch.command, ...launch.args]),
      http: (target) => shellLine(['claude', 'mcp', 'add', '--scope', 'user', '--transport', 'http', SERVER_NAME, target.url, '--header', `Authorization: ${bearerHeader(target).Authorization}`]),
    },
  },
  // Cursor: ~/.cursor/mcp.json (all projects; .cursor/mcp.json for one), `mcpServers` → { command, args, env }
  // or { url, headers } for Streamable HTTP and SSE alike (cursor.com/docs/mcp).
  cursor: {
    id: 'cursor',
    title: 'Cursor',
    format: 'json',
    container: 'mcpServers',
    defaultPath: (place) => join(place, place.home, '.cursor', 'mcp.json'),
    stdio: (launch) => ({ command: launch.command, args: launch.args }),
    http: (target) => ({ url: target.url, headers: bearerHeader(target) }),
  },
  // VS Code: mcp.json in the user profile (Code/User/mcp.json under the app-data dir; "MCP: Open User
  // Configuration") or .vscode/mcp.json in a workspace; `servers` → { type: "stdio", command, args, env }
  // or { type: "http", url, headers } (code.visualstudio.com/docs/copilot/reference/mcp-configuration).
  vscode: {
    id: 'vscode',
    title: 'VS Code',
    format: 'json',
    container: 'servers',
    defaultPath: (place) => join(place, appData(place), 'Code', 'User', 'mcp.json'),
    stdio: (launch) => ({ type: 'stdio', command: launch.command, args: launch.args }),
    http: (target) => ({ type: 'http', url: target.url, headers: bearerHeader(target) }),
  },
  // Windsurf: ~/.codeium/windsurf/mcp_config.json (Windows %USERPROFILE%\.codeium\windsurf\), `mcpServers`
  // → { command, args, env } or, for a remote server, { serverUrl, headers } (docs.windsurf.com/windsurf/cascade/mcp).
  windsurf: {
    id: 'windsurf',
    title: 'Windsurf',
    format: 'json',
    container: 'mcpServers',
    defaultPath: (place) => join(place, place.home, '.codeium', 'windsurf', 'mcp_config.json'),
    stdio: (launch) => ({ command: launch.command, args: launch.args }),
    http: (target) => ({ serverUrl: target.url, headers: bearerHeader(target) }),
  },
  // Codex: ~/.codex/config.toml ($CODEX_HOME/config.toml), one `[mcp_servers.<name>]` table: command, args,
  // env for stdio; url and http_headers (static headers) for Streamable HTTP (developers.openai.com/codex/mcp;
  // it does not take an inline `bearer_token`, hence the header).
  codex: {
    id: 'codex',
    title: 'Codex',
    format: 'toml',
    container: 'mcp_servers',
    defaultPath: (place) => join(place, place.env.CODEX_HOME || join(place, place.home, '.codex'), 'config.toml'),
    stdio: (launch) => ({ command: launch.command, args: launch.args }),
    http: (target) => ({ url: target.url, http_headers: bearerHeader(target) }),
  },
};

export const isClientId = (value: string): value is ClientId => (CLIENT_IDS as readonly string[]).includes(value);
