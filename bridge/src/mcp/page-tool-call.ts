import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { IdempotencyKey } from '../../../src/protocol/action-name.ts';
import { actionResult, type CallContext } from './handlers.ts';
import { IDEMPOTENCY_ARG, type MappedPageTool } from './page-tool-map.ts';
import { errorResult } from './results.ts';

/** What the call remembers of the client's keys: a retry with one reads the action's status instead of asking again. */
export interface KeyMemory {
  actionFor(key: string): string | undefined;
  remember(key: string, actionId: string): void;
}

/**
 * A page tool called by an MCP client: Steward's optional key taken out of the arguments, the
 * rest sent as the tool's input on the tab it was listed for (bridge/page-tool-call, through the
 * pipeline like steward_execute). A key this client used before reads that action's outcome
 * (bridge/action-status): the page may show another resource by then, and nothing runs twice.
 */
export async function callPageTool(tool: MappedPageTool, args: Record<string, unknown>, ctx: CallContext, keys: KeyMemory): Promise<CallToolResult> {
  const input = { ...args };
  let given: unknown;
  if (tool.idempotency_arg) {
    given = input[IDEMPOTENCY_ARG];
    delete input[IDEMPOTENCY_ARG];
  }
  if (given !== undefined && !IdempotencyKey.safeParse(given).success) {
    return errorResult({ code: 'INVALID_INPUT', message: `${IDEMPOTENCY_ARG} must be 8–255 letters, digits and _ . : - (a fresh unique key per intended call).`, retryable: false });
  }
  const key = typeof given === 'string' ? given : `mcp-page-${randomUUID()}`;
  const retry = `${tool.name} again with the same arguments and ${IDEMPOTENCY_ARG} "${key}"`;
  const known = keys.actionFor(key);
  const reply = known
    ? await ctx.link.call('bridge/action-status', { auth: ctx.auth, action_id: known })
    : await ctx.link.call('bridge/page-tool-call', { auth: ctx.auth, tab_id: tool.tab_id, tool: tool.page_name, input, idempotency_key: key, ...(ctx.session ? { session: ctx.session } : {}) });
  if (reply.ok && reply.data.result.action_id) keys.remember(key, reply.data.result.action_id);
  return actionResult(ctx, reply, key, retry);
}
