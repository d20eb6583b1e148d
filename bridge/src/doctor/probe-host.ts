import { spawn } from 'node:child_process';
import { z } from 'zod';
import { FrameReader } from '../host/framing.ts';

/** What starting the launcher as the browser does (the origin as its argument, native framing on stdio) showed. */
export type HostProbe =
  | { kind: 'hello'; version: string; protocol: number }
  /** It started, and another host (the browser's) already serves Steward on the socket. */
  | { kind: 'busy' }
  | { kind: 'refused'; detail: string }
  | { kind: 'failed'; detail: string };

export type ProbeHost = (launcher: string, origin: string) => Promise<HostProbe>;

const Hello = z.object({ kind: z.literal('hello'), host_version: z.string(), protocol: z.number() });

const PROBE_TIMEOUT_MS = 10_000;
const lastLine = (text: string) =>
  text
    .trim()
    .split('\n')
    .at(-1)
    ?.replace(/^steward-bridge: /, '') ?? '';

/**
 * Starts the launcher as the browser would and waits (bounded) for the host's hello frame, then
 * closes its stdin and waits for it to exit. On Windows the .cmd runs through cmd.exe, as Chrome runs it.
 */
export const probeHost: ProbeHost = (launcher, origin) =>
  new Promise((resolve) => {
    const windows = process.platform === 'win32';
    const child = windows
      ? spawn(process.env.ComSpec || 'cmd.exe', ['/d', '/s', '/c', `"${launcher}" ${origin}`], { windowsVerbatimArguments: true, stdio: 'pipe', windowsHide: true })
      : spawn(launcher, [origin], { stdio: 'pipe' });
    let stderr = '';
    let hello: HostProbe | undefined;
    let settled = false;
    const finish = (probe: HostProbe) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(probe);
    };
    const timer = setTimeout(() => {
      finish(hello ?? { kind: 'failed', detail: `no answer within ${PROBE_TIMEOUT_MS / 1000} s${stderr ? ` (it said: ${lastLine(stderr)})` : ''}` });
      child.kill();
    }, PROBE_TIMEOUT_MS);
    const reader = new FrameReader(1024 * 1024);
    child.stdout.on('data', (chunk: Buffer) => {
      for (const event of reader.push(chunk)) {
        const parsed = event.kind === 'message' ? Hello.safeParse(event.value) : undefined;
        if (!hello && parsed?.success) {
          hello = { kind: 'hello', version: parsed.data.host_version, protocol: parsed.data.protocol };
          // As when the browser lets go: the host sees stdin end, closes its socket and exits.
          child.stdin.end();
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => finish({ kind: 'failed', detail: error.message }));
    child.on('exit', (code, signal) => {
      if (hello) finish(hello);
      else if (/already listening/.test(stderr)) finish({ kind: 'busy' });
      else if (/refusing to run/.test(stderr)) finish({ kind: 'refused', detail: lastLine(stderr) });
      else finish({ kind: 'failed', detail: `it exited (${signal ?? `code ${code}`}) before answering${stderr ? `: ${lastLine(stderr)}` : ''}` });
    });
    // The browser's end stays open until the hello; an error writing to a host that died is reported by 'exit'.
    child.stdin.on('error', () => undefined);
  });
