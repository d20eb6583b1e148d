import type { ApprovalDecision, ApprovalRequest } from '../protocol/approval.ts';
import type { AuditEntry } from '../protocol/audit.ts';
import type { AgentId } from '../protocol/primitives.ts';
import type { DelegatedAgentToken, TokenSecret } from '../protocol/token.ts';
import type { ChainVerification } from '../storage/audit-chain.ts';
import { tokenStatus, type MintRequest, type TokenCheck, type TokenStatus } from '../storage/token-store.ts';
import type { DecideOptions, DecideResult } from './approvals.ts';
import type { PipelineDeps } from './runner.ts';
import type { TaintMark } from './taint.ts';
import { NO_POLICY } from '../protocol/managed-policy.ts';
import { clampTtlMs } from '../protocol/policy-rules.ts';

/** A token as the person sees it: public fields, where it stands, and how many actions ran under it. */
export interface TokenView {
  token: DelegatedAgentToken;
  status: TokenStatus;
  uses: number;
  /** Page content has reached the token's agent (taint.ts): since when, and what. */
  taint?: { at: string; source: string };
}

/** What checking the audit chain (or an exported file of it) found. */
export interface AuditVerdict {
  ok: boolean;
  entries: number;
  /** Where the chain breaks and how, when it does. */
  broken_at?: number;
  problem?: string;
}

export interface PurgeReport {
  tokens: number;
  idempotency: number;
  approvals_pending: number;
}

/**
 * What the person's side of Steward asks of the pipeline's records: the cards waiting for a
 * decision, the tokens granted, the audit log, and the periodic purge. The side panel, the
 * badge and the alarms reach the stores only through here.
 */
export class PipelineAdmin {
  constructor(private readonly deps: Pick<PipelineDeps, 'approvals' | 'tokens' | 'journal' | 'audit' | 'idempotency' | 'clock' | 'taint' | 'policy'>) {}

  /** Cards waiting for the person; listing expires those whose time is up. */
  pendingApprovals(): Promise<ApprovalRequest[]> {
    return this.deps.approvals.pending();
  }

  async pendingCount(): Promise<number> {
    return (await this.pendingApprovals()).length;
  }

  /** The person's decision on a card: the only way anything gets approved. */
  decide(decision: ApprovalDecision, options: DecideOptions = {}): Promise<DecideResult> {
    return this.deps.approvals.decide(decision, options);
  }

  /** The agent's tokens (every agent's without one), newest first. */
  async tokens(agentId?: AgentId): Promise<TokenView[]> {
    const [tokens, uses] = await Promise.all([this.deps.tokens.list(agentId), this.deps.journal.actionsPerToken()]);
    const now = this.deps.clock();
    tokens.sort((a, b) => Date.parse(b.issued_at) - Date.parse(a.issued_at));
    const taints = new Map(await Promise.all([...new Set(tokens.map((t) => t.agent_id))].map(async (a) => [a, await this.deps.taint.taintOf(a)] as const)));
    return tokens.map((t) => this.view(t, uses.get(t.token_id) ?? 0, now, taints.get(t.agent_id)));
  }

  /**
   * The person's decision that an agent's context is clean again (a new conversation, say): its
   * taint is dropped, and the audit log says who did it, for which agent, and what had reached it.
   * Only the panel calls this; no agent's call can reach it.
   */
  async clearTaint(agentId: AgentId): Promise<{ cleared: boolean }> {
    const mark = await this.deps.taint.clear(agentId);
    if (!mark) return { cleared: false };
    await this.deps.audit.append({
      kind: 'taint',
      agent_id: agentId,
      outcome: 'cleared_by_person',
      details: { cleared_by: 'user:local', tainted_since: new Date(mark.at).toISOString(), source: mark.source },
    });
    return { cleared: true };
  }

  /**
   * Grants a token. Its secret is returned this once and kept nowhere (the store keeps its hash).
   * Throws a RangeError for a lifetime Steward does not grant. A lifetime longer than the
   * organisation's policy allows is cut to it (the view shows the real end).
   */
  async mintToken(request: MintRequest): Promise<TokenView & { secret: TokenSecret }> {
    const ttl_ms = clampTtlMs(this.deps.policy?.() ?? NO_POLICY, 'token', request.ttl_ms);
    const { token, secret } = await this.deps.tokens.mint({ ...request, ttl_ms });
    return { ...this.view(token, 0, this.deps.clock()), secret };
  }

  /**
   * Whether a presented secret is a token that may be used now (by its hash): for callers outside
   * the pipeline that must know who is asking before they read anything (the MCP bridge's calls).
   */
  authenticate(secret: string): Promise<TokenCheck> {
    return this.deps.tokens.authenticate(secret);
  }

  /** Withdraws a token for good; undefined when there is no such token. */
  async revokeToken(tokenId: string): Promise<TokenView | undefined> {
    const token = await this.deps.tokens.revoke(tokenId);
    if (!token) return undefined;
    const uses = await this.deps.journal.actionsPerToken();
    return this.view(token, uses.get(token.token_id) ?? 0, this.deps.clock());
  }

  /** The audit log in seq order; with a limit, only the newest `limit` entries. */
  async auditEntries(limit?: number): Promise<AuditEntry[]> {
    const entries = await this.deps.audit.entries();
    return limit !== undefined ? entries.slice(-limit) : entries;
  }

  async verifyAudit(): Promise<AuditVerdict> {
    const v = await this.deps.audit.verify();
    return verdict(v, v.ok ? v.count : (await this.deps.audit.entries()).length);
  }

  /** JSON Lines, one entry per line, then the signed head. */
  exportAudit(): Promise<string> {
    return this.deps.audit.exportJsonl();
  }

  /** Checks an exported file: its entries, and that its last line is a head signed with this Steward's key. */
  async verifyAuditExport(jsonl: string): Promise<AuditVerdict> {
    const v = await this.deps.audit.verifyExport(jsonl);
    // Every line but the signed head is an entry.
    const lines = jsonl.split('\n').filter((l) => l.trim() !== '').length;
    return verdict(v, v.ok ? v.count : Math.max(0, lines - 1));
  }

  /**
   * What must go even when nobody is looking: expired tokens (never kept, DESIGN §7), idempotency
   * records past their time, and approval cards whose time is up (listing expires them).
   */
  async purge(): Promise<PurgeReport> {
    const [tokens, idempotency] = await Promise.all([this.deps.tokens.purgeExpired(), this.deps.idempotency.purgeExpired()]);
    return { tokens, idempotency, approvals_pending: await this.pendingCount() };
  }

  private view(token: DelegatedAgentToken, uses: number, now: number, taint?: TaintMark): TokenView {
    return { token, status: tokenStatus(token, now), uses, ...(taint ? { taint: { at: new Date(taint.at).toISOString(), source: taint.source } } : {}) };
  }
}

function verdict(v: ChainVerification, entries: number): AuditVerdict {
  if (v.ok) return { ok: true, entries };
  return { ok: false, entries, broken_at: v.seq, problem: `${v.problem}: ${v.message}`.slice(0, 2000) };
}
