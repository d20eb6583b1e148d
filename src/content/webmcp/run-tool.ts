import type { ToolRunOutcome } from '../../protocol/webmcp.ts';
import { PAGE_DEADLINES } from '../../protocol/deadlines.ts';
import { DeadlineExceeded, withDeadline } from '../../base/deadline.ts';
import { normalizeToolResult, reportsToolError } from '../../webmcp/normalize.ts';
import { ToolExecutionError, type ToolSource } from './tool-source.ts';

/** Settles with the tool's answer, or rejects with TIMEOUT once the deadline passed (the page may still be running it). */
function withinDeadline<T>(run: Promise<T>, deadlineMs: number): Promise<T> {
  return withDeadline(run, deadlineMs, "The page's tool").catch((error: unknown) => {
    if (error instanceof DeadlineExceeded) throw new ToolExecutionError('TIMEOUT', `The page's tool did not answer within ${deadlineMs} ms; it may still be running.`);
    throw error;
  });
}

/** Runs a page's tool within its deadline and reports the outcome; a tool that said it failed is a failure. */
export async function runTool(source: ToolSource | undefined, name: string, input: Record<string, unknown>, deadlineMs: number = PAGE_DEADLINES.tool_run_ms): Promise<ToolRunOutcome> {
  if (!source) {
    return { ok: false, error: { code: 'TOOL_NOT_FOUND', message: 'This frame exposes no WebMCP tools.', retryable: false } };
  }
  try {
    const { result, truncated } = await withinDeadline(source.run(name, input), deadlineMs);
    const normalized = normalizeToolResult(result);
    // A tool that answered with an error did not do what was asked; its text is the page's reason.
    if (reportsToolError(result)) {
      return { ok: false, error: { code: 'EXECUTION_FAILED', message: `The page's tool reported an error: ${normalized.result ?? ''}`.slice(0, 4000), retryable: false } };
    }
    return { ok: true, result: normalized.result, truncated: Boolean(truncated) || normalized.truncated, untrusted: true };
  } catch (error) {
    if (error instanceof ToolExecutionError) {
      return { ok: false, error: { code: error.code, message: error.message, retryable: false } };
    }
    const e = error instanceof Error ? error : new Error(String(error));
    const code = e instanceof TypeError ? 'INVALID_INPUT' : 'EXECUTION_FAILED';
    return { ok: false, error: { code, message: `${e.name}: ${e.message}`.slice(0, 4000), retryable: false } };
  }
}
