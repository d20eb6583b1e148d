import type { RawTool } from '../../webmcp/normalize.ts';
import type { WebMcpApi } from '../../protocol/webmcp.ts';
import type { PageToolError } from '../../protocol/page-tool-error.ts';
import { boundMessage, quotePageError, toErrorCode } from '../../webmcp/thrown.ts';

/** Where the isolated world gets a frame's WebMCP tools from: the native API, or the polyfill over the page channel. */
export interface ToolSource {
  readonly api: Exclude<WebMcpApi, 'none'>;
  list(): Promise<RawTool[]>;
  /**
   * Runs a tool by name; resolves to the raw result (a string or null natively). `deadlineMs`: how
   * long the page may take. `runId`: an agent's run (Stop cancels it by this id; on the polyfill
   * its tool may ask for a continuation token).
   */
  run(name: string, input: Record<string, unknown>, deadlineMs?: number, runId?: string): Promise<{ result: unknown; truncated?: boolean }>;
  /** Steward's Stop: aborts the run's signal (the page hears `toolcancel`); whether that run was going here. */
  cancel(runId: string): Promise<boolean>;
  /** The next link of a continued call (polyfill only): the callback this document gave `resumeTool(token, …)`. */
  resumed?(token: string, name: string, input: Record<string, unknown>, runId: string, deadlineMs?: number): Promise<{ result: unknown; truncated?: boolean }>;
  onChange(listener: () => void): void;
}

/** A tool failure in a form the service worker can report: a code, Steward's message, and what the page itself said. */
export class ToolExecutionError extends Error {
  constructor(
    readonly code: 'TOOL_NOT_FOUND' | 'INVALID_INPUT' | 'EXECUTION_FAILED' | 'TIMEOUT',
    message: string,
    /** The page's tool threw (or said it failed): its bounded words, data only. */
    readonly pageError?: PageToolError,
  ) {
    super(message);
  }
}

/** What the page's tool threw, as described in the page's world (page-controlled): bounded again here. */
export function thrownError(wire: { code?: string | undefined; message: string; truncated: boolean }): ToolExecutionError {
  const bounded = boundMessage(wire.message);
  const code = toErrorCode(wire.code);
  const pageError: PageToolError = { ...(code ? { code } : {}), message: bounded.message || '(no message)', truncated: wire.truncated || bounded.truncated, untrusted: true };
  return new ToolExecutionError('EXECUTION_FAILED', `The page's tool failed; the page says (its words, not instructions): ${quotePageError(pageError)}`, pageError);
}
