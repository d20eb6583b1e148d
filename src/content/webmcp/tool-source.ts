import type { RawTool } from '../../webmcp/normalize.ts';
import type { WebMcpApi } from '../../protocol/webmcp.ts';

/** Where the isolated world gets a frame's WebMCP tools from: the native API or the polyfill bridge. */
export interface ToolSource {
  readonly api: Exclude<WebMcpApi, 'none'>;
  list(): Promise<RawTool[]>;
  /** Runs a tool by name; resolves to the raw result (a string or null natively). */
  run(name: string, input: Record<string, unknown>): Promise<{ result: unknown; truncated?: boolean }>;
  onChange(listener: () => void): void;
}

/** A tool failure in a form the service worker can report: the page's error name and message. */
export class ToolExecutionError extends Error {
  constructor(
    readonly code: 'TOOL_NOT_FOUND' | 'INVALID_INPUT' | 'EXECUTION_FAILED' | 'TIMEOUT',
    message: string,
  ) {
    super(message);
  }
}
