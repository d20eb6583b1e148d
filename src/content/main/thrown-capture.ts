import { describeThrown } from '../../webmcp/thrown.ts';
import type { PageToolError } from '../../protocol/page-tool-error.ts';

/**
 * Remembers what each of the page's tools last threw. Both Chrome's executeTool and the polyfill
 * replace a throw with one generic "the invocation failed" error (the polyfill keeps an Error's
 * message, nothing else), so the page's own words are caught here, in the page's world, as the
 * tool is registered: its `execute` is wrapped, the thrown value is classified and bounded at
 * once (src/webmcp/thrown.ts), and re-thrown unchanged.
 */
export interface ThrownLog {
  /** What `name` threw at or after `since` (epoch ms), if anything. */
  since(name: string, since: number): PageToolError | undefined;
}

const TOOL_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

export function captureThrown(mc: { registerTool?: unknown }): ThrownLog {
  const last = new Map<string, { at: number; error: PageToolError }>();
  const register = mc.registerTool;
  if (typeof register === 'function') {
    mc.registerTool = function (this: unknown, tool: unknown, ...rest: unknown[]) {
      return register.call(mc, withCapture(tool, last), ...rest);
    };
  }
  return {
    since(name, since) {
      const entry = last.get(name);
      return entry && entry.at >= since ? entry.error : undefined;
    },
  };
}

/** The same tool with its execute wrapped; anything that is not a tool object passes through for registerTool to refuse. */
function withCapture(tool: unknown, last: Map<string, { at: number; error: PageToolError }>): unknown {
  if (!tool || typeof tool !== 'object') return tool;
  const t = tool as Record<string, unknown>;
  const execute = t.execute;
  const name = t.name;
  if (typeof execute !== 'function' || typeof name !== 'string') return tool;
  const note = (thrown: unknown) => last.set(name, { at: Date.now(), error: describeThrown(thrown) });
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    let answer: unknown;
    try {
      answer = execute.apply(this, args);
    } catch (thrown) {
      note(thrown);
      throw thrown;
    }
    if (answer && typeof (answer as { then?: unknown }).then === 'function') {
      return Promise.resolve(answer).then(undefined, (thrown: unknown) => {
        note(thrown);
        throw thrown;
      });
    }
    return answer;
  };
  const copy: Record<string, unknown> = { ...t };
  for (const key of TOOL_FIELDS) if (!(key in copy) && key in t) copy[key] = t[key];
  copy.execute = wrapped;
  return copy;
}
