import { describe, expect, it, vi } from 'vitest';
import { toolEntry, ToolRegistry } from '../../../../src/content/main/webmcp/tool-registry.ts';
import { runTool, type RunHooks } from '../../../../src/content/main/webmcp/tool-run.ts';

function hooks(log: string[] = []): RunHooks {
  return {
    activated: (name) => log.push(`activated:${name}`),
    cancelled: (name) => log.push(`cancel:${name}`),
    startingSync: (_name, start) => start(),
  };
}

describe('a polyfilled tool run', () => {
  it('answers with the tool’s result even when the tool unregisters itself while it runs', async () => {
    const registry = new ToolRegistry();
    const entry = toolEntry(
      {
        name: 'advance',
        description: 'd',
        execute: async () => {
          registry.remove(entry);
          return { status: 'resolved' };
        },
      },
      [],
    );
    registry.add(entry);
    await expect(runTool(entry, {}, undefined, hooks())).resolves.toBe('{"status":"resolved"}');
    expect(registry.find('advance', 'https://a.example', 'https://a.example')).toBeUndefined();
  });

  it('gives the tool a signal; the caller’s abort rejects with the caller’s reason, then aborts the tool’s signal and fires toolcancel', async () => {
    const log: string[] = [];
    let toolSignal: AbortSignal | undefined;
    const entry = toolEntry(
      {
        name: 'slow',
        description: 'd',
        execute: (_input: unknown, options: { signal: AbortSignal }) => {
          toolSignal = options.signal;
          options.signal.addEventListener('abort', () => log.push(`tool aborted:${(options.signal.reason as DOMException).name}`));
          return new Promise(() => undefined);
        },
      },
      [],
    );
    const caller = new AbortController();
    const run = runTool(entry, {}, caller.signal, hooks(log)).catch((reason: unknown) => log.push(`rejected:${String(reason)}`));
    expect(log).toEqual(['activated:slow']);
    caller.abort('stop');
    await run;
    expect(toolSignal?.aborted).toBe(false);
    await vi.waitFor(() => expect(log).toEqual(['activated:slow', 'rejected:stop', 'tool aborted:AbortError', 'cancel:slow']));
  });

  it('never starts a tool whose caller already aborted', async () => {
    const execute = vi.fn();
    await expect(runTool(toolEntry({ name: 't', description: 'd', execute }, []), {}, AbortSignal.abort('gone'), hooks())).rejects.toBe('gone');
    expect(execute).not.toHaveBeenCalled();
  });

  it('a throw is Chrome’s UnknownError; nothing returned is null (never the text "undefined")', async () => {
    const failing = toolEntry({ name: 't', description: 'd', execute: () => Promise.reject(new Error('no stock')) }, []);
    await expect(runTool(failing, {}, undefined, hooks())).rejects.toMatchObject({ name: 'UnknownError' });
    /** What a run answers for a tool whose execute returns `value`. */
    const serializeResult = (value: unknown) => runTool(toolEntry({ name: 't', description: 'd', execute: () => value }, []), {}, undefined, hooks());
    expect(await serializeResult(undefined)).toBeNull();
    expect(await serializeResult('text')).toBe('text');
    expect(await serializeResult({ a: 1 })).toBe('{"a":1}');
  });

  it('gives execute an invocation whose requestToken() asks Steward once per run, and only while the run is going', async () => {
    const tokens = vi.fn(async () => 'stwc_abc');
    let invocation: { requestToken(): Promise<string> } | undefined;
    const entry = toolEntry(
      {
        name: 'checkout',
        description: 'd',
        execute: async (_input: unknown, options: { invocation: { requestToken(): Promise<string> } }) => {
          invocation = options.invocation;
          return [await options.invocation.requestToken(), await options.invocation.requestToken()];
        },
      },
      [],
    );
    await expect(runTool(entry, {}, undefined, hooks(), tokens)).resolves.toBe('["stwc_abc","stwc_abc"]');
    expect(tokens).toHaveBeenCalledTimes(1);
    // After the run has its answer, no continuation can be asked for.
    await expect(invocation!.requestToken()).rejects.toMatchObject({ name: 'InvalidStateError' });
  });

  it('a call the page made itself (no agent behind it) gets no continuation token', async () => {
    const entry = toolEntry({ name: 'checkout', description: 'd', execute: (_input: unknown, options: { invocation: { requestToken(): Promise<string> } }) => options.invocation.requestToken() }, []);
    await expect(runTool(entry, {}, undefined, hooks())).rejects.toMatchObject({ name: 'UnknownError', message: expect.stringContaining('only for an agent') });
  });
});
