import { afterEach, describe, expect, it, vi } from 'vitest';
import { PolyfillToolSource } from '../../../src/content/webmcp/polyfill-source.ts';
import type { ToolExecutionError } from '../../../src/content/webmcp/tool-source.ts';
import { serveModelContext } from '../../../src/content/main/page-channel-server.ts';
import { captureThrown } from '../../../src/content/main/thrown-capture.ts';
import { pageAsks } from '../../../src/content/main/page-asks.ts';
import { runTool } from '../../../src/content/main/webmcp/tool-run.ts';
import type { StewardRuns } from '../../../src/content/main/webmcp/model-context.ts';
import { ok, refuse } from '../../../src/protocol/channel.ts';

const tick = () => new Promise((r) => setTimeout(r, 20));
const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});
function channel() {
  const c = new MessageChannel();
  ports.push(c.port1, c.port2);
  return c;
}

interface FakeTool {
  name: string;
  description?: string;
  run: (input: unknown) => unknown;
}

/** A page's polyfilled document.modelContext. */
class FakeModelContext extends EventTarget {
  constructor(public tools: FakeTool[]) {
    super();
  }
  async getTools() {
    return this.tools.map(({ name, description }) => ({ name, description }));
  }
  async executeTool(tool: { name: string }, input: unknown) {
    return this.tools.find((t) => t.name === tool.name)!.run(input);
  }
}

function overPageChannel(tools: FakeTool[]) {
  const { port1, port2 } = channel();
  const mc = new FakeModelContext(tools);
  serveModelContext(mc, port1, new Map(), captureThrown(mc as { registerTool?: unknown }));
  return { mc, source: new PolyfillToolSource(port2) };
}

class Named extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

describe('the page channel (main world ↔ isolated world over the private port)', () => {
  it('lists and runs the polyfill’s tools, and passes on tool changes', async () => {
    const { mc, source } = overPageChannel([{ name: 'echo', description: 'Echoes', run: (input) => JSON.stringify(input) }]);
    expect(await source.list()).toEqual([{ name: 'echo', description: 'Echoes' }]);
    expect(await source.run('echo', { a: 1 })).toEqual({ result: '{"a":1}', truncated: false });
    const changed = vi.fn();
    source.onChange(changed);
    mc.dispatchEvent(new Event('toolchange'));
    await tick();
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('turns the page’s failures into tool errors with bounded name and message', async () => {
    const { source } = overPageChannel([
      {
        name: 'typed',
        run: () => {
          throw new TypeError('bad input');
        },
      },
      {
        name: 'broken',
        run: () => {
          throw new Named('X'.repeat(500), 'm'.repeat(10_000));
        },
      },
    ]);
    await expect(source.run('missing', {})).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND', message: 'No tool named missing' });
    await expect(source.run('typed', {})).rejects.toMatchObject({ code: 'INVALID_INPUT', message: 'bad input' });
    const broken = await source.run('broken', {}).catch((e: unknown) => e as ToolExecutionError);
    expect(broken).toMatchObject({ code: 'EXECUTION_FAILED', pageError: { code: 'X'.repeat(64), truncated: true, untrusted: true } });
    expect((broken as ToolExecutionError).pageError?.message).toBe(`${'m'.repeat(500)}…`);
  });

  it('what a registered tool threw reaches the isolated world even when the polyfill hides it', async () => {
    const { port1, port2 } = channel();
    // Like @mcp-b/global: a throw becomes one generic UnknownError, the thrown value lost.
    const registered = new Map<string, (input: unknown) => unknown>();
    const mc = Object.assign(new FakeModelContext([]), {
      registerTool(tool: { name: string; execute: (input: unknown) => unknown }) {
        registered.set(tool.name, tool.execute);
        mc.tools.push({
          name: tool.name,
          run: async (input) => {
            try {
              return await tool.execute(input);
            } catch {
              throw new DOMException('Tool was executed but the invocation failed.', 'UnknownError');
            }
          },
        });
      },
    });
    serveModelContext(mc, port1, new Map(), captureThrown(mc));
    const source = new PolyfillToolSource(port2);
    mc.registerTool({ name: 'stock', execute: () => Promise.reject({ code: 'out-of-stock', message: 'Only 0 left' }) });
    mc.registerTool({
      name: 'text',
      execute: () => {
        throw 'just a string';
      },
    });
    mc.registerTool({ name: 'fine', execute: () => 'ok' });
    await expect(source.run('stock', {})).rejects.toMatchObject({ code: 'EXECUTION_FAILED', pageError: { code: 'OUT_OF_STOCK', message: 'Only 0 left', truncated: false } });
    await expect(source.run('text', {})).rejects.toMatchObject({ pageError: { message: 'just a string' } });
    await expect(source.run('fine', {})).resolves.toMatchObject({ result: 'ok' });
  });

  it('a tool that never answers is answered TIMEOUT by the main world at the deadline it was given', async () => {
    const { source } = overPageChannel([{ name: 'stall', run: () => new Promise(() => undefined) }]);
    const started = Date.now();
    await expect(source.run('stall', {}, 100)).rejects.toMatchObject({ code: 'TIMEOUT', message: "The page's tool did not answer within 0.1 s; it may still be running." });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('a hostile main world', () => {
  /** The isolated side, with the test holding the main world's end of the port. */
  function hostile(answer: (request: { id: number; type: string }, port: MessagePort) => void) {
    const { port1, port2 } = channel();
    port1.onmessage = (e) => answer(e.data as { id: number; type: string }, port1);
    return { page: port1, source: new PolyfillToolSource(port2) };
  }

  it('a reply that does not fit its request’s reply schema is refused with a clear error', async () => {
    const { source } = hostile(({ id, type }, port) => {
      port.postMessage({ id, reply: type === 'run' ? { ok: true, data: { result: 42, truncated: 'no' } } : { ok: true, data: { tools: 'all of them' } } });
    });
    await expect(source.run('anything', {})).rejects.toMatchObject({ code: 'EXECUTION_FAILED', message: expect.stringContaining('not a result') });
    await expect(source.list()).rejects.toMatchObject({ code: 'EXECUTION_FAILED', message: expect.stringContaining('does not fit') });
  });

  it('answers with unknown or mismatched ids are ignored; only the answer to this request counts', async () => {
    const { source } = hostile(({ id }, port) => {
      port.postMessage({ id: id + 1, reply: { ok: true, data: { result: 'forged', truncated: false } } });
      port.postMessage({ id: 'x', reply: { ok: true, data: { result: 'forged', truncated: false } } });
      port.postMessage({ id, reply: { ok: true, data: { result: 'real', truncated: false } } });
      port.postMessage({ id, reply: { ok: true, data: { result: 'again', truncated: false } } });
    });
    expect(await source.run('t', {})).toEqual({ result: 'real', truncated: false });
    expect(await source.run('t', {})).toEqual({ result: 'real', truncated: false });
  });

  it('a refusal with a code of the page’s own choosing is an execution failure', async () => {
    const { source } = hostile(({ id }, port) => port.postMessage({ id, reply: { ok: false, error: { code: 'APPROVED', message: 'trust me', retryable: true } } }));
    await expect(source.run('t', {})).rejects.toMatchObject({ code: 'EXECUTION_FAILED', message: 'APPROVED: trust me' });
  });

  it('pushes with junk are dropped; only a well-formed `changed` is heard', async () => {
    const { page, source } = hostile(() => undefined);
    const changed = vi.fn();
    source.onChange(changed);
    for (const junk of [
      { type: 'changed!' },
      { op: 'changed' },
      { type: 'network', record: { url: 5 } },
      { type: 'tools', tools: [] },
      'changed',
      null,
      { id: 1, reply: { ok: true, data: { tools: [] } } },
    ]) {
      page.postMessage(junk);
    }
    await tick();
    expect(changed).not.toHaveBeenCalled();
    page.postMessage({ type: 'changed' });
    await tick();
    expect(changed).toHaveBeenCalledTimes(1);
  });
});

describe('an agent’s run over the page channel: Stop and continuation tokens', () => {
  const RUN = 'run_AAAAAAAAAAAAAAAAAAAAAAAA';
  const noEvents = { activated: () => undefined, cancelled: () => undefined, startingSync: <T>(_n: string, start: () => T) => start() };
  type PageTool = (input: unknown, options: { signal: AbortSignal; invocation: { requestToken(): Promise<string> } }) => unknown;

  /** Steward's polyfill in the main world (its runs with their tokens and signals), the isolated world on the other end, and the worker's desk. */
  function agentChannel(tool: PageTool, resumedCallback?: PageTool) {
    const { port1, port2 } = channel();
    const mc = new FakeModelContext([{ name: 'checkout', run: () => 'not the agent’s path' }]);
    const runs: StewardRuns = {
      execute: (_tool, input, signal, tokens) => runTool({ name: 'checkout', execute: tool as never }, input, signal, noEvents, tokens),
      resumed: (_token, name, input, signal, tokens) => runTool({ name, execute: resumedCallback as never }, input, signal, noEvents, tokens),
    };
    const asks = pageAsks(port1);
    serveModelContext(mc, port1, new Map(), captureThrown(mc as { registerTool?: unknown }), { runs, asks });
    const desk = { token: vi.fn(async (run_id: string) => ok({ token: `stwc_for_${run_id}` })), resume: vi.fn(async () => ok({ tool: 'checkout' })) };
    return { source: new PolyfillToolSource(port2, desk), desk, page: port1, asks };
  }

  it('the tool’s requestToken() reaches Steward with the run’s id, and the token reaches the tool', async () => {
    const { source, desk } = agentChannel(async (_input, { invocation }) => `token ${await invocation.requestToken()}`);
    expect(await source.run('checkout', {}, 1_000, RUN)).toEqual({ result: `token stwc_for_${RUN}`, truncated: false });
    expect(desk.token).toHaveBeenCalledWith(RUN);
  });

  it('a page asking a token for a run that is not going in this frame is refused without asking Steward', async () => {
    const { desk, asks } = agentChannel(() => 'done');
    await expect(asks.token('run_BBBBBBBBBBBBBBBBBBBBBBBB')).rejects.toThrow('No agent’s call is running with that id in this frame.');
    expect(desk.token).not.toHaveBeenCalled();
  });

  it('a refusal from Steward reaches the page as a rejected requestToken()', async () => {
    const { source, desk } = agentChannel(async (_input, { invocation }) => invocation.requestToken());
    desk.token.mockResolvedValueOnce(refuse('NOT_ALLOWED', 'That tool run has ended.') as never);
    await expect(source.run('checkout', {}, 1_000, RUN)).rejects.toMatchObject({ code: 'EXECUTION_FAILED', pageError: { message: expect.stringContaining('That tool run has ended.') } });
  });

  it('Stop aborts the run’s signal in the page; a run the frame does not have is not cancelled', async () => {
    let aborted: unknown;
    const { source } = agentChannel((_input, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject((aborted = signal.reason)))));
    const run = source.run('checkout', {}, 5_000, RUN).catch((e: unknown) => e);
    await tick();
    expect(await source.cancel('run_CCCCCCCCCCCCCCCCCCCCCCCC')).toBe(false);
    expect(await source.cancel(RUN)).toBe(true);
    await run;
    await vi.waitFor(() => expect(aborted).toMatchObject({ name: 'AbortError' }));
  });

  it('the next document’s callback runs with the call’s input and may ask for a further token', async () => {
    const { source, desk } = agentChannel(
      () => 'first',
      async (input, { invocation }) => `placed ${JSON.stringify(input)} then ${await invocation.requestToken()}`,
    );
    expect(await source.resumed!('stwc_1', 'checkout', { item: 'boots' }, RUN, 1_000)).toEqual({ result: `placed {"item":"boots"} then stwc_for_${RUN}`, truncated: false });
    expect(desk.token).toHaveBeenCalledWith(RUN);
  });
});
