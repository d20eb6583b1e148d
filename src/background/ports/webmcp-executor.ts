import type { ExecutionCall, ExecutionReport, Executor, PortContext } from '../../pipeline/ports.ts';
import { ToolRunOutcome } from '../../protocol/webmcp.ts';
import type { SendToFrame } from './act.ts';

/**
 * The WebMCP path: the page's own tool, run in the agent's tab through the existing
 * `content/run-tool` message (native `executeTool`, or the polyfill over the private port). The
 * input was validated against the tool's schema by the capability check. A declarative form
 * without `toolautosubmit` is filled and then waits for the person to submit it: that is
 * reported as accepted (pending), never as done — the pipeline's dispatch() enforces it too.
 */

export interface WebMcpDeps {
  tabOf(ctx: PortContext): Promise<number | undefined>;
  send: SendToFrame;
  /** How long to wait for a form that waits for the user before reporting it as pending. */
  formWaitMs?: number;
}

const TOP_FRAME = 0;
/** Errors the page reports before running anything. */
const NOT_RUN = new Set(['TOOL_NOT_FOUND', 'INVALID_INPUT']);

export function webmcpExecutor(deps: WebMcpDeps): Executor {
  return {
    async execute(call: ExecutionCall): Promise<ExecutionReport> {
      const tabId = await deps.tabOf(call.ctx);
      if (tabId === undefined) return { outcome: 'failed', message: "the agent's tab is gone", side_effect_possible: false };
      const waitsForUser = call.tool?.kind === 'declarative' && call.tool.autosubmit !== true;
      const run = deps.send(tabId, TOP_FRAME, { type: 'content/run-tool', name: call.action, input: call.input });
      // A form left waiting may reject long after we answered; that must not be an unhandled rejection.
      run.catch(() => undefined);
      let raw: unknown;
      try {
        if (waitsForUser) {
          const pending = Symbol('pending');
          const first = await Promise.race([run, new Promise((r) => setTimeout(() => r(pending), deps.formWaitMs ?? 1_500))]);
          // Filled, and now waiting for the person: pending, not done.
          if (first === pending) return { outcome: 'accepted' };
          raw = first;
        } else raw = await run;
      } catch (error) {
        return { outcome: 'failed', message: `the page could not be reached: ${error instanceof Error ? error.message : String(error)}`, side_effect_possible: true };
      }
      const parsed = ToolRunOutcome.safeParse(raw);
      if (!parsed.success) return { outcome: 'failed', message: 'the page answered with something that is not a tool result', side_effect_possible: true };
      const outcome = parsed.data;
      if (!outcome.ok) return { outcome: 'failed', message: `${outcome.error.code}: ${outcome.error.message}`.slice(0, 3500), side_effect_possible: !NOT_RUN.has(outcome.error.code) };
      // A page's tool output is page data, never instructions, whether or not the tool says so.
      return { outcome: 'completed', output: { text: outcome.result, truncated: outcome.truncated, untrusted: true } };
    },
  };
}
