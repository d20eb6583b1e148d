import type { ExpectedEffect } from '../protocol/expectation.ts';
import type { McpSession } from '../protocol/mcp-session.ts';

/**
 * Who submits, as the service worker knows it from the connection (the side panel's co-pilot,
 * or a paired MCP client): never taken from the request payload.
 */
export interface AgentContext {
  agent_id: string;
  /**
   * The token secret the agent presents (`stw_secret_…`), authenticated by its hash. Never stored:
   * records carry the token's public id only.
   */
  token: string;
  /** The agent's working session (maps to its tab inside the service worker). */
  session_id?: string;
  /**
   * A paired MCP client's session (one connection: one conversation), as the bridge sent it with
   * the call; only the worker's bridge door sets it. Every audit entry of the action records it.
   */
  mcp_session?: McpSession;
  /**
   * The agent's own claim that its input was built from untrusted content: approval for anything.
   * It can only add: whether page content has reached the agent is the runtime's fact (taint.ts).
   */
  untrusted_input?: boolean;
  /**
   * The person's own words for this task, when Steward itself holds them (the co-pilot's goal,
   * typed in the side panel), never from an agent: text an agent types or a URL it opens that
   * comes from these words is the person's, not the page's (policy/quiet-sinks.ts).
   */
  person_words?: string;
  /** The effect that would confirm the action, from the agent's plan. */
  expect?: ExpectedEffect;
  /**
   * Default true: submit() waits for the side panel's decision. False: it returns
   * APPROVAL_REQUIRED at once and the action continues in the background; resubmitting with the
   * same idempotency key returns IN_PROGRESS until it ends, then its result.
   */
  wait_for_approval?: boolean;
}
