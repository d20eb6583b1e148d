// `npm run test:bridge-pack`: the bridge as a person gets it from npm, not as it runs in this workspace.
// Packs bridge/ (`npm pack`, which builds it), checks the tarball holds only what the command needs,
// installs it into an empty folder (`npm install <tgz>`: its dependencies come from the npm cache or
// the registry; with no registry, `npm ci --offline` from the cache the repository's `npm ci` filled),
// then runs the installed `steward-bridge`: `--version`, `serve` answering an MCP initialize and
// tools/list over stdio, and the same through the launch line `config cursor` gives a client.
// `--offline` skips the registry and installs from the cache alone.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TEST_HOOK_NAMES } from '../src/background/test-hooks.ts';
import { installPacked, packBridge, type Manifest } from './bridge-pack.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** Everything the package ships; anything else (source, maps, tests, config) is a mistake. */
const EXPECTED_FILES = ['package/LICENSE', 'package/README.md', 'package/bin/steward-bridge.js', 'package/dist/cli.js', 'package/package.json'];
const TOOLS = ['steward_action_status', 'steward_actions', 'steward_execute', 'steward_memory', 'steward_observe', 'steward_open', 'steward_screenshot', 'steward_tabs'];

const problems: string[] = [];
const check = (ok: boolean, problem: string) => void (ok || problems.push(problem));

function checkContents(tarball: string, unpacked: string): Manifest {
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
  check(JSON.stringify(files) === JSON.stringify(EXPECTED_FILES), `the tarball holds ${files.join(', ')}; expected exactly ${EXPECTED_FILES.join(', ')}`);
  mkdirSync(unpacked);
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
  const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8')) as Manifest;
  const bundle = readFileSync(join(unpacked, 'package', 'dist', 'cli.js'), 'utf8');
  const readme = readFileSync(join(unpacked, 'package', 'README.md'), 'utf8');

  check(manifest.bin?.['steward-bridge'] === 'bin/steward-bridge.js', `package.json's bin does not name steward-bridge → bin/steward-bridge.js: ${JSON.stringify(manifest.bin)}`);
  check(manifest.license === 'MIT' && /MIT License/.test(readFileSync(join(unpacked, 'package', 'LICENSE'), 'utf8')), 'package.json names no MIT license, or LICENSE is not the MIT text');
  check(Boolean(manifest.engines?.node), 'package.json has no engines.node');
  check(Boolean(manifest.repository) && Boolean(manifest.homepage), 'package.json has no repository or homepage');
  for (const [name, spec] of Object.entries(manifest.dependencies ?? {})) {
    check(/^\d+\.\d+\.\d+$/.test(spec), `dependency ${name} is "${spec}", not an exact published version (a file:, link:, workspace: or range spec does not install the same everywhere)`);
  }

  // The bundle imports only Node's modules and the declared dependencies; the shared protocol (../src) is inside it.
  const declared = Object.keys(manifest.dependencies ?? {});
  const builtins = new Set(builtinModules);
  const imports = [...bundle.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1] ?? m[2] ?? m[3]!,
  );
  for (const spec of imports) {
    const known = spec.startsWith('node:') || builtins.has(spec) || declared.some((name) => spec === name || spec.startsWith(`${name}/`));
    check(known, `dist/cli.js imports "${spec}", which is neither a Node module nor one of the package's dependencies`);
  }
  check(!/sourceMappingURL/.test(bundle), 'dist/cli.js points at a source map');
  check(!bundle.includes(ROOT), `dist/cli.js contains this workspace's path (${ROOT})`);
  for (const hook of TEST_HOOK_NAMES) check(!bundle.includes(hook), `dist/cli.js carries the test hook ${hook}`);
  check(!/\]\((?:\.\.?\/)/.test(readme), "README.md links to a relative path, which does not exist outside this repository (npm's page shows the README alone)");
  return manifest;
}

/** The MCP server `command args` starts, over stdio: initialize, then tools/list; stdin closed, it exits 0. */
async function initializeOverStdio(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ serverName: string; tools: string[] }> {
  // From the file system's root, as a desktop app starts it: nothing may depend on the working directory.
  const child = spawn(command, args, { cwd: '/', env: { ...process.env, STEWARD_BRIDGE_CREDENTIAL: '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const reply = async (id: number) => {
    for (;;) {
      const line = stdout.split('\n').find((l) => l.includes(`"id":${id}`));
      if (line) return JSON.parse(line) as { result?: Record<string, unknown>; error?: unknown };
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`serve stopped before answering request ${id}:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  try {
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bridge pack check', version: '1' } } });
    const init = await reply(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const list = await reply(2);
    child.stdin.end();
    const code = await exited;
    check(code === 0, `serve exited ${code} after stdin closed:\n${stderr}`);
    const serverName = String((init.result?.serverInfo as { name?: string } | undefined)?.name);
    const tools = ((list.result?.tools as Array<{ name: string }> | undefined) ?? []).map((t) => t.name).sort();
    return { serverName, tools };
  } finally {
    clearTimeout(killer);
    child.kill();
  }
}

const started = Date.now();
// Short: the bridge's socket path inside the home dir must fit a Unix socket path.
const dir = mkdtempSync(join(tmpdir(), 'sbp-'));
try {
  const { tarball, integrity } = packBridge(dir);
  const manifest = checkContents(tarball, join(dir, 'unpacked'));
  const app = join(dir, 'app');
  const how = installPacked(app, tarball, { integrity, manifest }, process.argv.includes('--offline'));
  const bin = join(app, 'node_modules', '.bin', 'steward-bridge');
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 20_000 }).trim();
  check(version === manifest.version, `steward-bridge --version printed "${version}", not the package's ${manifest.version}`);
  const home = join(dir, 'home');
  mkdirSync(home, { mode: 0o700 });
  const served = await initializeOverStdio(bin, ['serve'], { STEWARD_BRIDGE_HOME: home });
  check(served.serverName === 'steward-bridge', `serve's initialize answered serverInfo.name "${served.serverName}"`);
  check(JSON.stringify(served.tools) === JSON.stringify(TOOLS), `serve's tools/list answered ${served.tools.join(', ') || 'nothing'}; expected ${TOOLS.join(', ')}`);

  // The launch line `config` gives a client names this installed copy, by absolute paths, and starts it.
  const config = JSON.parse(execFileSync(bin, ['config', 'cursor', '--home', home], { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe'] })) as {
    mcpServers: { steward: { command: string; args: string[] } };
  };
  const { command, args } = config.mcpServers.steward;
  check(args[0] === realpathSync(join(app, 'node_modules', manifest.name, 'bin', 'steward-bridge.js')), `config's launch line runs ${args[0]}, not the installed bin`);
  const launched = await initializeOverStdio(command, args, { STEWARD_BRIDGE_HOME: '' });
  check(
    JSON.stringify(launched.tools) === JSON.stringify(TOOLS),
    `the launch line from \`config cursor\` (${[command, ...args].join(' ')}) did not serve the tools: ${launched.tools.join(', ') || 'nothing'}`,
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (problems.length > 0) {
    console.error(`The packed bridge (${tarball.split('/').pop()}) is not right:\n- ${problems.join('\n- ')}`);
    process.exitCode = 1;
  } else {
    console.log(
      `The packed bridge ${manifest.name}@${manifest.version} holds ${EXPECTED_FILES.length} files, installs into an empty folder (${how}), prints its version, and answers an MCP initialize and tools/list over stdio, run as \`serve\` and by the launch line \`config\` gives a client (${seconds} s).`,
    );
  }
} catch (error) {
  console.error(`The packed bridge could not be checked: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
