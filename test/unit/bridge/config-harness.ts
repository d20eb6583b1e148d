import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runConfig, type ConfigContext } from '../../../bridge/src/config/command.ts';

/** `steward-bridge config` run in-process for a person whose home is a temporary folder. */

export const NODE = '/opt/node 20/bin/node';
export const CLI_PATH = '/opt/steward bridge/bin/steward-bridge.js';

export interface ConfigWorld {
  home: string;
  /** The bridge's home inside it (~/.config/steward-bridge on Linux). */
  bridgeHome: string;
  run(args: string[], overrides?: Partial<ConfigContext>): Promise<{ code: number; stdout: string; stderr: string }>;
  remove(): Promise<void>;
}

export async function configWorld(platform: NodeJS.Platform = 'linux', env: NodeJS.ProcessEnv = {}): Promise<ConfigWorld> {
  const home = await mkdtemp(path.join(tmpdir(), 'sbc-'));
  return {
    home,
    bridgeHome: path.join(home, '.config', 'steward-bridge'),
    async run(args, overrides = {}) {
      let stdout = '';
      let stderr = '';
      const code = await runConfig(args, {
        place: { platform, env, home },
        cwd: home,
        launcher: { node: NODE, flags: [], cli: CLI_PATH },
        defaultPort: 8787,
        httpUrl: (port) => `http://127.0.0.1:${port}/mcp`,
        out: (text) => (stdout += text),
        err: (text) => (stderr += text),
        ...overrides,
      });
      return { code, stdout, stderr };
    },
    remove: () => rm(home, { recursive: true, force: true }),
  };
}
