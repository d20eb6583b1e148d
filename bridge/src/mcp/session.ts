import { randomBytes } from 'node:crypto';
import type { McpSession } from '../../../src/protocol/mcp-session.ts';

/**
 * A new session of a client (src/protocol/mcp-session.ts), minted here when its connection opens:
 * a stdio process's one connection, or a 2025-era HTTP session. Its own random id, not the
 * transport's Mcp-Session-Id (which a client presents with every request, and which the audit log
 * must not hand to whoever reads an export).
 */
export function newMcpSession(now: Date = new Date()): McpSession {
  return { id: `mcps_${randomBytes(16).toString('base64url')}`, started_at: now.toISOString() };
}
