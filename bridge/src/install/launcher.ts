import { join } from 'node:path';
import { BRIDGE_HOST_NAME } from '../../../src/protocol/bridge.ts';

/**
 * The launcher the host manifest names: a script in the bridge home that runs this CLI's `host`
 * with the Node that ran `install`, the bridge home and the allowed extension ids baked in (the
 * browser starts it with a bare environment). A sh script on Linux and macOS, a .cmd on Windows.
 * Written and read back here (doctor checks what it runs). Pure.
 */

export interface LauncherSpec {
  /** Node's absolute path (spaces and quotes allowed), its flags, and the CLI's absolute path. */
  nodePath: string;
  nodeFlags: readonly string[];
  cliPath: string;
  /** The bridge home the host uses. */
  home: string;
  extensionIds: readonly string[];
}

const isWindows = (platform: NodeJS.Platform) => platform === 'win32';

export const launcherPath = (home: string, platform: NodeJS.Platform = process.platform): string => join(home, 'host', isWindows(platform) ? 'steward-bridge-host.cmd' : 'steward-bridge-host');

/** Single-quoted for sh: nothing inside is expanded. */
const shQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** Double-quoted for cmd.exe: `%` is the one character still expanded inside quotes (and `"` cannot be in a Windows path). */
const cmdQuote = (value: string) => `"${value.replaceAll('%', '%%')}"`;

const HEADER = `Written by \`steward-bridge install\`: the browser runs this when Steward connects to ${BRIDGE_HOST_NAME}.`;

export function launcherText(spec: LauncherSpec, platform: NodeJS.Platform): string {
  const ids = spec.extensionIds.join(',');
  if (isWindows(platform)) {
    const command = [spec.nodePath, ...spec.nodeFlags, spec.cliPath].map(cmdQuote).join(' ');
    return ['@echo off', `rem ${HEADER}`, `set "STEWARD_BRIDGE_HOME=${spec.home.replaceAll('%', '%%')}"`, `set "STEWARD_EXTENSION_ID=${ids}"`, `${command} host %*`, ''].join('\r\n');
  }
  const command = [spec.nodePath, ...spec.nodeFlags, spec.cliPath].map(shQuote).join(' ');
  return [
    '#!/bin/sh',
    `# ${HEADER}`,
    `STEWARD_BRIDGE_HOME=${shQuote(spec.home)}`,
    `STEWARD_EXTENSION_ID=${shQuote(ids)}`,
    'export STEWARD_BRIDGE_HOME STEWARD_EXTENSION_ID',
    `exec ${command} host "$@"`,
    '',
  ].join('\n');
}

/** The words of a line of sh made of single-quoted words (what shQuote writes). */
function shWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return [];
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The words of a cmd line of double-quoted words (what cmdQuote writes). */
const cmdWords = (line: string): string[] => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => (m[1] ?? m[2] ?? '').replaceAll('%%', '%'));

/** What a launcher written by launcherText runs, or null when it is not one of ours. */
export function readLauncher(text: string, platform: NodeJS.Platform): LauncherSpec | null {
  const lines = text.split(/\r?\n/);
  if (!lines.some((line) => line.includes('steward-bridge install'))) return null;
  let home: string | undefined;
  let ids: string | undefined;
  let command: string[] | undefined;
  for (const line of lines) {
    if (isWindows(platform)) {
      const set = /^set "(STEWARD_BRIDGE_HOME|STEWARD_EXTENSION_ID)=(.*)"$/.exec(line);
      if (set?.[1] === 'STEWARD_BRIDGE_HOME') home = set[2]!.replaceAll('%%', '%');
      else if (set) ids = set[2];
      else if (line.endsWith(' host %*')) command = cmdWords(line.slice(0, -' host %*'.length));
    } else if (line.startsWith('STEWARD_BRIDGE_HOME=')) home = shWords(line.slice('STEWARD_BRIDGE_HOME='.length))[0];
    else if (line.startsWith('STEWARD_EXTENSION_ID=')) ids = shWords(line.slice('STEWARD_EXTENSION_ID='.length))[0];
    else if (line.startsWith('exec ') && line.endsWith(' host "$@"')) command = shWords(line.slice('exec '.length, -' host "$@"'.length));
  }
  if (home === undefined || ids === undefined || !command || command.length < 2) return null;
  return { nodePath: command[0]!, nodeFlags: command.slice(1, -1), cliPath: command.at(-1)!, home, extensionIds: ids.split(',').filter(Boolean) };
}
