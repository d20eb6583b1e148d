#!/usr/bin/env node
// The installed command: the bundled CLI (built by `npm run build -w bridge`, and before `npm pack`).
import('../dist/cli.js').catch((error) => {
  process.stderr.write(`steward-bridge: cannot start (${error && error.message ? error.message : error}); run "npm run build -w bridge" first.\n`);
  process.exit(1);
});
