#!/usr/bin/env node
// The installed command: the bundled CLI (dist/cli.js, built before `npm pack`; in a checkout, by `npm run build:bridge`).
import('../dist/cli.js').catch((error) => {
  process.stderr.write(`steward-bridge: cannot start (${error && error.message ? error.message : error}).\n`);
  process.exit(1);
});
