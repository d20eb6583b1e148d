import { z } from 'zod';
import { IsoDateTime } from './primitives.ts';

/**
 * One session of a paired MCP client: one connection of a stdio client (its `steward-bridge serve`
 * process), one 2025-era HTTP session (Mcp-Session-Id), in the person's words one conversation.
 * The bridge mints it when the connection opens (never the client, never a page: the id is not the
 * transport's own session id, which a client presents) and sends it with the calls that act
 * (bridge/execute, bridge/page-tool-call). The worker records it in the `details` of each audit
 * entry of those actions, so the hash chain covers it, and Activity groups a client's actions per
 * session. It names a conversation, it authorises nothing: the token does.
 */
const McpSessionId = z.string().regex(/^mcps_[A-Za-z0-9_-]{16,64}$/, 'must be an MCP session id minted by steward-bridge (mcps_…)');

export const McpSession = z.object({
  id: McpSessionId,
  /** When the connection opened, by the bridge's clock: what Activity heads the session with. */
  started_at: IsoDateTime,
});
export type McpSession = z.infer<typeof McpSession>;

/** The audit entry's `details` key the session is recorded under. */
const MCP_SESSION_DETAIL = 'mcp_session';

/** The session an audit entry's details record, when they record a well-formed one. */
export function mcpSessionIn(details: Record<string, unknown> | undefined): McpSession | undefined {
  return McpSession.safeParse(details?.[MCP_SESSION_DETAIL]).data;
}

/**
 * `details` as an action's audit entry records them: the action's own session (from the agent
 * context the worker built) and never one a step's details brought along (a site's refusal
 * details are the site's words); without a session, no such key at all.
 */
export function withMcpSession(details: Record<string, unknown> | undefined, session: McpSession | undefined): Record<string, unknown> | undefined {
  if (!session && (details === undefined || !(MCP_SESSION_DETAIL in details))) return details;
  const { [MCP_SESSION_DETAIL]: _brought, ...rest } = details ?? {};
  if (session) return { ...rest, [MCP_SESSION_DETAIL]: { id: session.id, started_at: session.started_at } };
  return Object.keys(rest).length > 0 ? rest : undefined;
}
