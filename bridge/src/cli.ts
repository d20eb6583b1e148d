// steward-bridge: `serve` (stdio MCP server, or --http), `host` (started by Chrome), `install`.
const command = process.argv[2] ?? 'serve';
process.stderr.write(`steward-bridge: "${command}" is not built yet\n`);
process.exitCode = 2;
