import type { ToolRunOutcome } from '../protocol/webmcp.ts';
import { ToolRunOutcome as ToolRunOutcomeSchema } from '../protocol/webmcp.ts';
import type { BackgroundToContent } from '../protocol/messages.ts';
import { validateToolInput } from '../webmcp/validate-input.ts';
import type { ToolRegistry } from './tool-registry.ts';

export type SendToFrame = (tabId: number, frameId: number, message: BackgroundToContent) => Promise<unknown>;

const fail = (code: string, message: string, retryable = false, details?: unknown): ToolRunOutcome => ({
  ok: false,
  error: { code, message, retryable, ...(details === undefined ? {} : { details }) },
});

/**
 * Runs a page's WebMCP tool on the user's request from the side panel. Until the policy gateway
 * exists only read-only tools run here; everything else is refused with APPROVAL_REQUIRED.
 */
export async function runToolFromPanel(
  registry: ToolRegistry,
  send: SendToFrame,
  request: { tabId: number; frameId: number; name: string; input: Record<string, unknown> },
): Promise<ToolRunOutcome> {
  const found = registry.find(request.tabId, request.frameId, request.name);
  if (!found) return fail('TOOL_NOT_FOUND', `No tool "${request.name}" is known in that tab and frame. Refresh the tool list.`, true);
  const { tool } = found;
  if (tool.annotations.readOnlyHint !== true) {
    return fail(
      'APPROVAL_REQUIRED',
      `"${tool.name}" is not marked read-only, so it needs an approved action; the side panel runs only read-only tools.`,
    );
  }
  if (tool.schemaError) return fail('INVALID_TOOL_SCHEMA', `The page declared an input schema for "${tool.name}" that Steward refuses to evaluate: ${tool.schemaError}`);
  const check = validateToolInput(tool.inputSchema, request.input);
  if (!check.valid && 'schemaProblem' in check) return fail('INVALID_TOOL_SCHEMA', `The page declared an input schema for "${tool.name}" that Steward refuses to evaluate: ${check.schemaProblem}`);
  if (!check.valid) return fail('INVALID_INPUT', `The input does not match the schema of "${tool.name}".`, false, { issues: check.issues });

  let reply: unknown;
  try {
    reply = await send(request.tabId, request.frameId, { type: 'content/run-tool', name: tool.name, input: request.input });
  } catch (error) {
    return fail('EXECUTION_FAILED', `The page could not be reached: ${String(error)}`, true);
  }
  const parsed = ToolRunOutcomeSchema.safeParse(reply);
  if (!parsed.success) return fail('EXECUTION_FAILED', 'The page answered with something that is not a tool result.');
  // Results of tools that declare untrusted content stay marked wherever they flow.
  if (parsed.data.ok && tool.annotations.untrustedContentHint) return { ...parsed.data, untrusted: true };
  return parsed.data;
}
