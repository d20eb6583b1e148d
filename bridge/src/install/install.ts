import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BRIDGE_HOST_NAME } from '../../../src/protocol/bridge.ts';
import { ensurePrivateDir } from '../paths.ts';
import { manifestDirs, type Where } from './manifest-dirs.ts';

export interface InstallOptions extends Where {
  extensionId: string;
  /** The bridge home the host will use (baked into the launcher). */
  home: string;
  /** How to run this CLI again: node's absolute path, its flags, and the CLI's absolute path. */
  nodePath: string;
  nodeFlags: string[];
  cliPath: string;
}

const EXTENSION_ID = /^[a-p]{32}$/;

export const launcherPath = (home: string) => join(home, 'host', 'steward-bridge-host');
const manifestFile = (dir: string) => join(dir, `${BRIDGE_HOST_NAME}.json`);

/** Single-quoted for sh: nothing inside is expanded. */
const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

function launcherScript(options: InstallOptions): string {
  const command = [options.nodePath, ...options.nodeFlags, options.cliPath].map(shellQuote).join(' ');
  return [
    '#!/bin/sh',
    `# Written by \`steward-bridge install\`: the browser runs this when Steward connects to ${BRIDGE_HOST_NAME}.`,
    `STEWARD_BRIDGE_HOME=${shellQuote(options.home)}`,
    `STEWARD_EXTENSION_ID=${shellQuote(options.extensionId)}`,
    'export STEWARD_BRIDGE_HOME STEWARD_EXTENSION_ID',
    `exec ${command} host "$@"`,
    '',
  ].join('\n');
}

function hostManifest(launcher: string, extensionId: string) {
  return {
    name: BRIDGE_HOST_NAME,
    description: 'Steward MCP bridge: lets paired MCP clients reach Steward, through its gateway.',
    path: launcher,
    type: 'stdio',
    allowed_origins: [`chrome-extension://${extensionId}/`],
  };
}

export type Outcome = { ok: true; files: string[] } | { ok: false; problem: string };

const UNSUPPORTED = 'Windows needs the host registered in the registry (HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts); the bridge does not do that yet.';

/** Writes the launcher (0700) into the bridge home and the host manifest where the browser looks for it. */
export function install(options: InstallOptions): Outcome {
  if (!EXTENSION_ID.test(options.extensionId)) return { ok: false, problem: `${JSON.stringify(options.extensionId)} is not an extension id (32 letters a–p).` };
  const dirs = manifestDirs(options);
  if (!dirs) return { ok: false, problem: UNSUPPORTED };
  ensurePrivateDir(options.home);
  const launcher = launcherPath(options.home);
  ensurePrivateDir(join(options.home, 'host'));
  writeFileSync(launcher, launcherScript(options), { mode: 0o700 });
  chmodSync(launcher, 0o700);
  const files = [launcher];
  const manifest = `${JSON.stringify(hostManifest(launcher, options.extensionId), null, 2)}\n`;
  for (const dir of dirs) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(manifestFile(dir), manifest, { mode: 0o644 });
    files.push(manifestFile(dir));
  }
  return { ok: true, files };
}

/** Removes the host manifests (ours only) and the launcher. */
export function uninstall(options: Where & { home: string }): Outcome {
  const dirs = manifestDirs(options);
  if (!dirs) return { ok: false, problem: UNSUPPORTED };
  const files: string[] = [];
  for (const file of [...dirs.map(manifestFile), launcherPath(options.home)]) {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (file.endsWith('.json') && !isOurManifest(text)) continue;
    rmSync(file);
    files.push(file);
  }
  return { ok: true, files };
}

function isOurManifest(text: string): boolean {
  try {
    return (JSON.parse(text) as { name?: unknown }).name === BRIDGE_HOST_NAME;
  } catch {
    return false;
  }
}
