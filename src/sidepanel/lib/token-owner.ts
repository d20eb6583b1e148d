import { t } from '../../base/i18n.ts';
import type { DelegatedAgentToken } from '../../protocol/token.ts';

/** Agent ids the pairing of an MCP client mints (src/mcp/pairing-book.ts). */
const MCP_AGENT_PREFIX = 'agent:mcp-';

/** Who a token is for, in the words the Tokens view shows: the label the person saw when granting, and what kind of agent it is. Pure. */
export function tokenOwner(token: Pick<DelegatedAgentToken, 'agent_id' | 'label'>): { label?: string; kind?: string } {
  return { ...(token.label ? { label: token.label } : {}), ...(token.agent_id.startsWith(MCP_AGENT_PREFIX) ? { kind: t('tokens_kind_mcp_client') } : {}) };
}
