// `npm run conformance`: the MCP conformance suite (@modelcontextprotocol/conformance) against
// `steward-bridge serve --http`, as it is configured for a person (Host/Origin checks, bearer token).
//
// The suite's server mode connects without headers, so the bearer is added by a small proxy on
// another loopback port; the proxy maps only its own Host to the bridge's and passes every other
// header through untouched, so the suite's DNS-rebinding probes still meet the bridge's own check.
// No browser runs: tools that need Steward answer STEWARD_UNAVAILABLE, which the suite sees as a
// server without the suite's own test tools. Not part of `npm test` (a few minutes, no network).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bridge', 'bin', 'steward-bridge.js');
const SUITE = fileURLToPath(import.meta.resolve('@modelcontextprotocol/conformance/dist/index.js'));

if (!existsSync(join(ROOT, 'bridge', 'dist', 'cli.js'))) throw new Error('bridge/dist is missing: run `npm run build:bridge` first.');
if (!existsSync(SUITE)) throw new Error('@modelcontextprotocol/conformance is not installed.');

const work = mkdtempSync(join(tmpdir(), 'sb-conf-'));
const home = join(work, 'home');
const env = { ...process.env, STEWARD_BRIDGE_HOME: home, STEWARD_BRIDGE_LINK_WAIT_MS: '300' };

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((r) => probe.close(r));
  return port;
}

const bridgePort = await freePort();
const bridge = spawn(process.execPath, [CLI, 'serve', '--http', '--port', String(bridgePort)], { env, stdio: ['ignore', 'ignore', 'pipe'] });
let bridgeLog = '';
bridge.stderr.on('data', (d: Buffer) => (bridgeLog += d.toString()));

async function waitForBridge(): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (bridge.exitCode !== null) throw new Error(`steward-bridge serve --http exited (${bridge.exitCode}):\n${bridgeLog}`);
    const answered = await fetch(`http://127.0.0.1:${bridgePort}/mcp`, { method: 'POST' }).then(
      () => true,
      () => false,
    );
    const tokenFile = join(home, 'http-token');
    if (answered && existsSync(tokenFile)) return readFileSync(tokenFile, 'utf8').trim();
    if (Date.now() > deadline) throw new Error(`the HTTP bridge never answered:\n${bridgeLog}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const token = await waitForBridge();

/** Forwards to the bridge with the person's bearer; the proxy's own Host becomes the bridge's, any other Host stays as sent. */
const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  const ownHost = /^(127\.0\.0\.1|localhost):(\d+)$/.exec(req.headers.host ?? '');
  if (ownHost && Number(ownHost[2]) === proxyPort) headers.host = `${ownHost[1]}:${bridgePort}`;
  const upstream = request({ host: '127.0.0.1', port: bridgePort, method: req.method, path: req.url, headers, setHost: false }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (e) => {
    if (!res.headersSent) res.writeHead(502);
    res.end(String(e));
  });
  req.pipe(upstream);
});
const proxyPort = await listen(proxy);

// The suite needs Node 22's fs.globSync for its reports only; on Node 20 a small stand-in is given to it alone.
const hooks = join(work, 'hooks.mjs');
writeFileSync(
  hooks,
  `const shim = 'data:text/javascript,' + encodeURIComponent(${JSON.stringify(`import fs from 'node:fs';
export * from 'node:fs';
export default fs;
export function globSync(pattern, options = {}) {
  const name = String(pattern).replace(/^[*][*][/]/, '');
  return fs.readdirSync(options.cwd ?? process.cwd(), { recursive: true }).map(String).filter((p) => p === name || p.endsWith('/' + name));
}`)});
export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
`,
);
const register = join(work, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);

const started = Date.now();
const extra = process.argv.slice(2);
const run = spawnSync(process.execPath, ['--import', register, SUITE, 'server', '--url', `http://localhost:${proxyPort}/mcp`, ...extra], { cwd: work, env, encoding: 'utf8', timeout: 10 * 60_000 });
const seconds = ((Date.now() - started) / 1000).toFixed(1);

proxy.close();
bridge.kill('SIGTERM');
await new Promise((r) => (bridge.exitCode !== null ? r(undefined) : bridge.once('exit', r)));

const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
process.stdout.write(output);
process.stdout.write(
  `\nconformance: exit ${run.status ?? run.signal}, ${seconds} s against steward-bridge serve --http (bearer added by the proxy; no browser, so Steward's tools answer STEWARD_UNAVAILABLE)\n`,
);
if (process.env.STEWARD_CONFORMANCE_BRIDGE_LOG) process.stdout.write(`\nbridge stderr:\n${bridgeLog}\n`);
rmSync(work, { recursive: true, force: true });
process.exitCode = run.status ?? 1;
