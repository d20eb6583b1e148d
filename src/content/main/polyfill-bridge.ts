import { ok, refuse, type Handlers, type Refusal } from '../../protocol/channel.ts';
import { answerCorrelated } from '../../protocol/correlated-channel.ts';
import { PageBridgeRequests, type PageBridgePush } from '../../protocol/page-bridge-channel.ts';
import { normalizeToolResult } from '../../webmcp/normalize.ts';

interface PageTool {
  name: string;
  title?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  annotations?: unknown;
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
 * The polyfill's getTools() keeps only readOnlyHint and untrustedContentHint; Chromium's native
 * API also reports consequentialHint. Record what the page declared at registration so both
 * paths describe a tool the same way.
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

/** A tool's failure as the isolated world reads it: the page's error name picks the code; name and message bounded. */
function toolFailure(error: unknown): Refusal {
  const e = error instanceof Error ? error : new Error(String(error));
  const name = String(e.name).slice(0, 200);
  const message = String(e.message);
  if (name === 'NotFoundError') return refuse('TOOL_NOT_FOUND', message);
  if (name === 'TypeError') return refuse('INVALID_INPUT', message);
  return refuse('EXECUTION_FAILED', `${name}: ${message}`);
}

function modelContextHandlers(mc: PageModelContext, declared: Map<string, unknown>): Handlers<PageBridgeRequests, void> {
  return {
    list: async () => ok({ tools: (await mc.getTools()).map((t) => toWire(t, declared)) }),
    run: async ({ name, input }) => {
      try {
        const tool = (await mc.getTools()).find((t) => t.name === name);
        if (!tool) return refuse('TOOL_NOT_FOUND', `No tool named ${name}`);
        return ok(normalizeToolResult(await execute(mc, tool, input)));
      } catch (error) {
        return toolFailure(error);
      }
    },
  };
}

/** Serves the isolated world's list/run requests from the page's polyfilled document.modelContext. */
export function serveModelContext(mc: PageModelContext, port: MessagePort, declared: Map<string, unknown>): void {
  const handlers = modelContextHandlers(mc, declared);
  mc.addEventListener('toolchange', () => port.postMessage({ type: 'changed' } satisfies PageBridgePush));
  port.addEventListener('message', (event: MessageEvent) => {
    void answerCorrelated(PageBridgeRequests, handlers, event.data, undefined, (answer) => port.postMessage(answer)).catch(() => undefined);
  });
  port.start();
}
