import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempHome } from './mcp-fake-link.ts';

const root = path.resolve(import.meta.dirname, '../../..');

/** A bridge process serving stdio with a scripted link (written to a temp dir so nothing in the repo is a stray entry point). */
async function childScript(dir: string): Promise<string> {
  const file = path.join(dir, 'serve-stdio-child.mts');
  await writeFile(
    file,
    `import { serveStdio } from ${JSON.stringify(path.join(root, 'bridge/src/mcp/index.ts'))};
     import { FakeLink } from ${JSON.stringify(path.join(root, 'test/unit/bridge/mcp-fake-link.ts'))};
     const link = new FakeLink();
     console.log = () => { throw new Error('console.log would corrupt stdout'); };
     await serveStdio({ link, home: ${JSON.stringify(dir)}, log: (line) => process.stderr.write(line + '\\n') });
     process.stderr.write('served; link closed: ' + link.closed + '\\n');`,
  );
  return file;
}

describe('MCP over stdio', () => {
  it('writes only MCP frames on stdout, and exits by itself once stdin closes, closing the link', async () => {
    const home = await tempHome();
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [await childScript(home)], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stdio probe', version: '1' } } });
    await expect.poll(() => stdout.includes('"id":1'), { timeout: 25_000 }).toBe(true);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'steward_tabs', arguments: {} } });
    await expect.poll(() => stdout.includes('"id":2'), { timeout: 25_000 }).toBe(true);
    child.stdin.end();

    expect(await exited).toBe(0);
    const frames = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id?: number; result?: { isError?: boolean; structuredContent?: unknown } });
    expect(frames.map((f) => f.id)).toEqual([1, 2]);
    expect(frames[1]!.result).toMatchObject({ isError: true, structuredContent: { error: { code: 'STEWARD_UNAVAILABLE' } } });
    expect(stderr).toContain('served; link closed: true');
  }, 60_000);
});
