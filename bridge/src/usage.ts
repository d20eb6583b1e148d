export const USAGE = `steward-bridge — lets an MCP client use your browser through Steward (paired in Steward's side panel; every action through its gateway).

Usage:
  steward-bridge [serve] [--credential FILE] [--client-key-file KEYFILE]
                                               MCP server on stdin/stdout (what an MCP client launches); the client's
                                               pairing is kept in FILE (else STEWARD_BRIDGE_CREDENTIAL; else only while it runs);
                                               KEYFILE holds the key an organisation issued to this client (else
                                               STEWARD_CLIENT_KEY), presented when it asks to pair
  steward-bridge pair --credential FILE [--name NAME] [--client-key-file KEYFILE]
                                               pairs a client from this terminal: shows the code, waits for the person
                                               in Steward's side panel, writes the credential to FILE
  steward-bridge serve --http [--port 8787] [--allow-origin ORIGIN]...
                                               MCP server as Streamable HTTP on 127.0.0.1 (bearer token: see http-token)
  steward-bridge install [--browser NAME]... [--extension-id ID]... [--user-data-dir DIR]
                                               registers the native-messaging host where each browser looks for it
                                               (once per user; NAME: chrome, chrome-beta, chrome-dev, chrome-canary,
                                               chromium, edge, brave, or all = every one this user has, the default);
                                               ID: Steward's extension id (default its unpacked id; repeat for several)
  steward-bridge uninstall [--browser NAME]... [--user-data-dir DIR]
                                               removes what install wrote (all of it, or those browsers')
  steward-bridge doctor [--browser NAME]... [--extension-id ID]... [--json]
                                               checks, per browser, the manifest, its launcher, that the host starts
                                               and answers, and that Steward is connected; prints each fix (exit 1 if
                                               anything is wrong)
  steward-bridge http-token [--port 8787]      prints the HTTP URL and its bearer token
  steward-bridge config <client> [--transport stdio|http] [--write] [--config PATH]
                                               the client's own config entry for the bridge, printed or (--write) merged
                                               into its config file; clients: claude-desktop, claude-code, cursor, vscode,
                                               windsurf, codex (\`steward-bridge config --help\` says more)
  steward-bridge audit verify <file>...         checks each browser's audit chain in the lines a syslog collector
                                               wrote (gaps, reordering, edits); exit 1 naming the first break
  steward-bridge status                        says whether Steward's host is listening (exit 0) or not (exit 1)
  steward-bridge host <origin>                 the native-messaging host (the browser runs it; not for people)
  steward-bridge --version                     the bridge's version

Options:
  --home DIR     the bridge's home dir (default: STEWARD_BRIDGE_HOME, else $XDG_CONFIG_HOME/steward-bridge,
                 ~/.config/steward-bridge, or on macOS ~/Library/Application Support/steward-bridge)
  --user-data-dir DIR
                 install, uninstall or check for one browser profile (a browser started with --user-data-dir DIR
                 reads its host from DIR/NativeMessagingHosts, not the user-level place)
  -h, --help     this text
`;
