import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureThrown } from '../../../src/content/main/thrown-capture.ts';
import { NativeToolSource } from '../../../src/content/webmcp/native-source.ts';

type Tool = { name: string; description: string; execute: (input: unknown) => unknown };

/** Chrome's native document.modelContext: a throw comes back as one generic UnknownError. */
function nativeLike() {
  const tools = new Map<string, Tool>();
  const mc = Object.assign(new EventTarget(), {
    registerTool(tool: Tool) {
      tools.set(tool.name, tool);
    },
    // Chromium 156 names the window that registered each tool.
    getTools: () => Promise.resolve([...tools.values()].map(({ name, description }) => ({ name, description, window: globalThis.window }))),
    async executeTool(tool: { name: string }, input: unknown) {
      try {
        return (await tools.get(tool.name)!.execute(input)) as string | null;
      } catch {
        throw new DOMException('Tool was executed but the invocation failed.', 'UnknownError');
      }
    },
  });
  return { mc, tools };
}

describe('what a page’s tool threw, seen from the page’s world', () => {
  it('the thrown value is recorded, classified and thrown on unchanged; a tool that answers is untouched', async () => {
    const { mc, tools } = nativeLike();
    const log = captureThrown(mc);
    const thrown = { code: 'slot_taken', message: 'No slot' };
    mc.registerTool({
      name: 'sync',
      description: 'd',
      execute: () => {
        throw thrown;
      },
    });
    mc.registerTool({ name: 'async', description: 'd', execute: () => Promise.reject(new RangeError('late')) });
    mc.registerTool({ name: 'fine', description: 'd', execute: (input) => `got ${JSON.stringify(input)}` });
    const since = Date.now();
    expect(() => tools.get('sync')!.execute({})).toThrow(expect.objectContaining(thrown) as Error);
    await expect(tools.get('async')!.execute({})).rejects.toBeInstanceOf(RangeError);
    expect(await tools.get('fine')!.execute({ a: 1 })).toBe('got {"a":1}');
    expect(log.since('sync', since)).toEqual({ code: 'SLOT_TAKEN', message: 'No slot', truncated: false, untrusted: true });
    expect(log.since('async', since)).toMatchObject({ code: 'RANGE_ERROR', message: 'late' });
    expect(log.since('fine', since)).toBeUndefined();
    // Only throws since the run began count: an old one says nothing about this run.
    expect(log.since('sync', Date.now() + 1_000)).toBeUndefined();
  });

  afterEach(() => vi.unstubAllGlobals());

  it('the native source reports what the main world saw, not Chrome’s generic error; without it, Chrome’s words', async () => {
    vi.stubGlobal('window', { name: 'this frame' });
    const { mc } = nativeLike();
    const log = captureThrown(mc);
    mc.registerTool({
      name: 'stock',
      description: 'd',
      execute: () => {
        throw 'Only 0 left';
      },
    });
    const source = new NativeToolSource(mc);
    await expect(source.run('stock', {})).rejects.toMatchObject({ code: 'EXECUTION_FAILED', pageError: expect.objectContaining({ message: 'Tool was executed but the invocation failed.' }) });
    source.thrownLookup = (name, since) => Promise.resolve(log.since(name, since));
    await expect(source.run('stock', {})).rejects.toMatchObject({ code: 'EXECUTION_FAILED', pageError: { message: 'Only 0 left', truncated: false, untrusted: true } });
  });
});
