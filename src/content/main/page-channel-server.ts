import { ok, refuse, type Handlers, type Reply } from '../../protocol/channel.ts';
import { DeadlineExceeded, withDeadline } from '../../base/deadline.ts';
import { toolTimeoutMessage, type PageToolError } from '../../protocol/page-tool-error.ts';
import { describeThrown } from '../../webmcp/thrown.ts';
import type { ThrownLog } from './thrown-capture.ts';
import { answerCorrelated } from '../../protocol/correlated-channel.ts';
import { PageChannelRequests, type PageChannelPush } from '../../protocol/page-channel.ts';
import { normalizeToolResult } from '../../webmcp/normalize.ts';
import type { StewardRuns } from './webmcp/model-context.ts';
import type { PageAsks } from './page-asks.ts';

interface PageTool {
  name: string;
  title?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  annotations?: unknown;
  /** The window that registered the tool: getTools() lists the page's same-origin frames' tools too, as Chrome does. */
  window?: unknown;
}
interface PageModelContext extends EventTarget {
  getTools(): Promise<PageTool[]>;
  executeTool(tool: PageTool, input: unknown): Promise<unknown>;
}

const plain = (value: unknown) => {
  try {
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  } catch {
    return '[unserialisable]';
  }
};

/**
 * getTools() reports the annotations Chrome reports, as booleans; record what the page declared
 * at registration too, so any other hint it gave still reaches Steward, as with native WebMCP.
 */
export function recordDeclaredAnnotations(mc: { registerTool?: unknown }): Map<string, unknown> {
  const declared = new Map<string, unknown>();
  const register = mc.registerTool;
  if (typeof register !== 'function') return declared;
  mc.registerTool = function (this: unknown, tool: unknown, ...rest: unknown[]) {
    if (tool && typeof tool === 'object') {
      const { name, annotations } = tool as { name?: unknown; annotations?: unknown };
      if (typeof name === 'string' && annotations && typeof annotations === 'object') declared.set(name, plain(annotations));
    }
    return register.call(mc, tool, ...rest);
  };
  return declared;
}

/** Copies only plain data out of a page tool: the page's objects never cross the port. */
function toWire(tool: PageTool, declared: Map<string, unknown>) {
  const listed = plain(tool.annotations) as Record<string, unknown> | undefined;
  const original = declared.get(tool.name) as Record<string, unknown> | undefined;
  return {
    name: tool.name,
    title: typeof tool.title === 'string' ? tool.title : undefined,
    description: typeof tool.description === 'string' ? tool.description : undefined,
    inputSchema: typeof tool.inputSchema === 'string' ? tool.inputSchema : plain(tool.inputSchema),
    annotations: original || listed ? { ...original, ...listed } : undefined,
  };
}

/** The polyfill accepts the input as an object or (older shape) a JSON string; try both. */
async function execute(mc: PageModelContext, tool: PageTool, input: Record<string, unknown>): Promise<unknown> {
  try {
    return await mc.executeTool(tool, input);
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (error instanceof TypeError || /pars|input|argument/i.test(message)) return mc.executeTool(tool, JSON.stringify(input));
    throw error;
  }
}

/**
 * A tool's failure as the isolated world reads it. What the tool itself threw (seen by the
 * capture) is the page's error, as data; otherwise the polyfill's own refusals keep their codes.
 */
function toolFailure(error: unknown, thrown: PageToolError | undefined): Reply<{ thrown: PageToolError }> {
  if (thrown) return ok({ thrown });
  const e = error instanceof Error ? error : new Error(String(error));
  const name = String(e.name).slice(0, 200);
  if (name === 'NotFoundError') return refuse('TOOL_NOT_FOUND', String(e.message));
  if (name === 'TypeError') return refuse('INVALID_INPUT', String(e.message));
  return ok({ thrown: describeThrown(error) });
}

/** The page's tool, or TIMEOUT once `deadlineMs` passed: the port's answer never waits for ever (the tool itself cannot be stopped). */
async function runWithin(run: Promise<unknown>, deadlineMs: number | undefined): Promise<unknown> {
  return deadlineMs === undefined ? run : withDeadline(run, deadlineMs, "The page's tool");
}

const registeredHere = (tool: PageTool) => !('window' in tool) || tool.window === window;

/** Steward's own runs of the page's tools (model-context.ts), and the way to ask Steward for their continuation tokens. */
export interface AgentRuns {
  runs: StewardRuns;
  asks: Pick<PageAsks, 'token'>;
}

function modelContextHandlers(mc: PageModelContext, declared: Map<string, unknown>, thrownLog: ThrownLog, agent?: AgentRuns): Handlers<PageChannelRequests, void> {
  /** The agents' runs going now, by run id: what Steward's Stop aborts. */
  const running = new Map<string, AbortController>();
  /** Runs `start` as the agent's run `run_id` (its abort signal, its continuation tokens), or as before without one. */
  const asAgent = async (run_id: string | undefined, start: (signal: AbortSignal | undefined, tokens: (() => Promise<string>) | undefined) => Promise<unknown>) => {
    if (!run_id || !agent) return start(undefined, undefined);
    const controller = new AbortController();
    running.set(run_id, controller);
    try {
      return await start(controller.signal, () => agent.asks.token(run_id));
    } finally {
      running.delete(run_id);
    }
  };
  /** The run's answer for the isolated world: the result, TIMEOUT past the deadline, or the failure. */
  const answer = async (name: string, deadline_ms: number | undefined, run: () => Promise<unknown>) => {
    const started = Date.now();
    try {
      return ok(normalizeToolResult(await runWithin(run(), deadline_ms)));
    } catch (error) {
      if (error instanceof DeadlineExceeded) return refuse('TIMEOUT', toolTimeoutMessage(error.ms));
      return toolFailure(error, thrownLog.since(name, started));
    }
  };
  return {
    // Each frame reports only its own tools (its own port serves the others), as with native WebMCP.
    list: async () => ok({ tools: (await mc.getTools()).filter(registeredHere).map((t) => toWire(t, declared)) }),
    run: async ({ name, input, deadline_ms, run_id }) => {
      let tool: PageTool | undefined;
      try {
        const named = (await mc.getTools()).filter((t) => t.name === name);
        tool = named.find(registeredHere) ?? named[0];
      } catch (error) {
        return toolFailure(error, undefined);
      }
      if (!tool) return refuse('TOOL_NOT_FOUND', `No tool named ${name}`);
      const found = tool;
      return answer(name, deadline_ms, () => asAgent(run_id, (signal, tokens) => (agent && run_id ? agent.runs.execute(found, input, signal, tokens) : execute(mc, found, input))));
    },
    cancel: ({ run_id }) => {
      const controller = running.get(run_id);
      controller?.abort(new DOMException('The person stopped the agent’s call.', 'AbortError'));
      return ok({ cancelled: controller !== undefined });
    },
    resumed: async ({ token, name, input, deadline_ms, run_id }) => {
      if (!agent) return refuse('NOT_SUPPORTED', 'Tool continuations are not available here.');
      return answer(name, deadline_ms, () => asAgent(run_id, (signal, tokens) => agent.runs.resumed(token, name, input, signal, tokens)));
    },
    thrown: ({ name, since }) => ok({ thrown: thrownLog.since(name, since) ?? null }),
  };
}

/**
 * With Chrome's native WebMCP the isolated world runs tools itself; the main world only says what
 * a tool threw, which Chrome's executeTool does not pass on.
 */
export function serveNativeThrown(port: MessagePort, thrownLog: ThrownLog): void {
  const handlers: Handlers<PageChannelRequests, void> = {
    list: () => refuse('NOT_SUPPORTED', 'Native WebMCP: the isolated world lists tools itself.'),
    run: () => refuse('NOT_SUPPORTED', 'Native WebMCP: the isolated world runs tools itself.'),
    cancel: () => refuse('NOT_SUPPORTED', 'Native WebMCP: the isolated world cancels its runs itself.'),
    resumed: () => refuse('NOT_SUPPORTED', 'Native WebMCP has no tool continuations in this browser.'),
    thrown: ({ name, since }) => ok({ thrown: thrownLog.since(name, since) ?? null }),
  };
  port.addEventListener('message', (event: MessageEvent) => {
    void answerCorrelated(PageChannelRequests, handlers, event.data, undefined, (answer) => port.postMessage(answer)).catch(() => undefined);
  });
  port.start();
}

/**
 * Serves the isolated world's requests from the page's polyfilled document.modelContext. With
 * `agent` (Steward's own polyfill), an agent's run goes through Steward's runs: its signal (Stop)
 * and its continuation tokens.
 */
export function serveModelContext(mc: PageModelContext, port: MessagePort, declared: Map<string, unknown>, thrownLog: ThrownLog, agent?: AgentRuns): void {
  const handlers = modelContextHandlers(mc, declared, thrownLog, agent);
  mc.addEventListener('toolchange', () => port.postMessage({ type: 'changed' } satisfies PageChannelPush));
  port.addEventListener('message', (event: MessageEvent) => {
    void answerCorrelated(PageChannelRequests, handlers, event.data, undefined, (answer) => port.postMessage(answer)).catch(() => undefined);
  });
  port.start();
}
