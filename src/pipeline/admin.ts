import type { ApprovalDecision, ApprovalRequest } from '../protocol/approval.ts';
import type { AuditEntry } from '../protocol/audit.ts';
import type { AgentId } from '../protocol/primitives.ts';
import type { DelegatedAgentToken, TokenSecret } from '../protocol/token.ts';
import type { ChainVerification } from '../storage/audit-chain.ts';
import { clearThrough, retentionThrough } from '../storage/audit-retention.ts';
import { tokenStatus, type MintRequest, type TokenCheck, type TokenStatus } from '../storage/token-store.ts';
import type { DecideOptions, DecideResult } from './approvals.ts';
import type { PipelineDeps } from './runner.ts';
import type { TaintMark } from './taint.ts';
import { NO_POLICY } from '../protocol/managed-policy.ts';
import { clampTtlMs } from '../protocol/policy-rules.ts';
import type { PolicyRecord } from '../protocol/policy-record.ts';
import type { RecalledMemory } from '../storage/memory-store.ts';
import { phrase, type Phrase } from '../protocol/phrase.ts';

/** Who writes Steward's own entries (the person's privacy decisions, on their word in `details.by`; the policy in force). */
const STEWARD_AGENT = 'agent:steward';

/** A token as the person sees it: public fields, where it stands, and how many actions ran under it. */
export interface TokenView {
  token: DelegatedAgentToken;
  status: TokenStatus;
  uses: number;
  /** Page content has reached the token's agent (taint.ts): since when, and what. */
  taint?: { at: string; source: string; source_said?: Phrase };
}

/** What checking the audit chain (or an exported file of it) found. */
export interface AuditVerdict {
  ok: boolean;
  entries: number;
  /** Where the chain breaks and how, when it does. */
  broken_at?: number;
  problem?: string;
  /** The problem's kind as a phrase, for the panel to say in the person's language (`problem` stays the verifier's English). */
  problem_said?: Phrase;
  /** Older entries were removed through this seq (retention or clear): the chain is checked from there. */
  removed_through?: number;
}

/** What a retention run or a clear did. */
export interface AuditRemoval {
  removed: number;
  /** Entries kept only because the audit export has not copied them yet (they go in a later run). */
  kept_for_export: number;
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
  constructor(
    private readonly deps: Pick<PipelineDeps, 'approvals' | 'tokens' | 'journal' | 'audit' | 'idempotency' | 'clock' | 'taint' | 'policy' | 'memory'>,
    /** The first seq the audit export still needs in the log (Infinity: none); see AuditExporter.keepsFrom. */
    private readonly exportKeepsFrom: () => Promise<number> = () => Promise.resolve(Infinity),
  ) {}

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

  /** The organisation's policy in force changed (src/background/policy/policy-audit.ts says when): on record, as Steward's own entry. */
  async recordPolicy(record: PolicyRecord): Promise<void> {
    await this.deps.audit.append({ kind: 'policy', agent_id: STEWARD_AGENT, outcome: record.outcome, details: record.details });
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
   * Removes the entries older than `days` (the person's retention period), leaving a recorded
   * chain start (audit-retention.ts) so what remains still verifies. Entries the audit export has
   * not copied yet stay until it has.
   */
  async applyAuditRetention(days: number): Promise<AuditRemoval> {
    const keepFrom = await this.exportKeepsFrom();
    const now = this.deps.clock();
    let waiting = 0;
    const { removed } = await this.deps.audit.removeOldest(
      (entries) => {
        const through = retentionThrough(entries, days, now, keepFrom);
        waiting = (retentionThrough(entries, days, now) ?? -1) - (through ?? -1);
        return through;
      },
      { reason: 'retention', retention_days: days, by: 'retention' },
    );
    return { removed, kept_for_export: waiting };
  }

  /**
   * The person's "clear": every entry goes (except those the audit export has not copied yet),
   * and the log restarts from one entry recording the clear, chained to what was removed.
   */
  async clearAudit(): Promise<AuditRemoval> {
    const keepFrom = await this.exportKeepsFrom();
    let waiting = 0;
    const { removed } = await this.deps.audit.removeOldest(
      (entries) => {
        const head = entries.at(-1)?.seq;
        const through = clearThrough(head, keepFrom);
        waiting = (clearThrough(head) ?? -1) - (through ?? -1);
        return through;
      },
      { reason: 'cleared', by: 'user:local' },
    );
    return { removed, kept_for_export: waiting };
  }

  /** Steward's durable memory, newest first (the person's list in Settings). */
  memoryEntries(): Promise<RecalledMemory[]> {
    return this.deps.memory.store.durable();
  }

  /** The person deletes one memory entry; the audit says which (what it was about, never its content). */
  async deleteMemory(id: string): Promise<{ deleted: boolean }> {
    const gone = await this.deps.memory.store.forget(id);
    if (gone === undefined) return { deleted: false };
    await this.deps.audit.append({
      kind: 'privacy',
      agent_id: STEWARD_AGENT,
      outcome: 'memory_deleted',
      ...(gone.resource ? { resource: gone.resource } : {}),
      details: { by: 'user:local', memory_id: id, memory_kind: gone.kind },
    });
    return { deleted: true };
  }

  /**
   * "Forget this site": its memory goes here; the caller has already removed its grants (the
   * site list, Chrome's permission, an agent contract's grant) and says which. All of it goes on
   * record in one audit entry. Agents that page content of the site reached stay tainted: that
   * content is still in their context (only the person's clear, per agent, drops it).
   */
  async forgetSite(origin: string, grants: { site_removed: boolean; grant_removed: boolean }): Promise<{ memory_removed: number; tainted_agents: string[] }> {
    const memory_removed = await this.deps.memory.store.forgetSite(origin);
    const tainted_agents = await this.agentsTaintedBy(origin);
    await this.deps.audit.append({
      kind: 'privacy',
      agent_id: STEWARD_AGENT,
      outcome: 'site_forgotten',
      details: { by: 'user:local', origin, memory_removed, ...grants, still_tainted: tainted_agents },
    });
    return { memory_removed, tainted_agents };
  }

  /** Agents (those with tokens) whose taint came from `origin`. */
  private async agentsTaintedBy(origin: string): Promise<string[]> {
    const agents = [...new Set((await this.deps.tokens.list()).map((t) => t.agent_id))];
    const marks = await Promise.all(agents.map(async (a) => [a, await this.deps.taint.taintOf(a)] as const));
    return marks.filter(([, m]) => m?.source.includes(origin)).map(([a]) => a);
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
    return {
      token,
      status: tokenStatus(token, now),
      uses,
      ...(taint ? { taint: { at: new Date(taint.at).toISOString(), source: taint.source, ...(taint.said ? { source_said: taint.said } : {}) } } : {}),
    };
  }
}

function verdict(v: ChainVerification, entries: number): AuditVerdict {
  if (v.ok) return { ok: true, entries, ...(v.removed_through !== undefined ? { removed_through: v.removed_through } : {}) };
  return { ok: false, entries, broken_at: v.seq, problem: `${v.problem}: ${v.message}`.slice(0, 2000), problem_said: phrase('chain_broken', { problem: v.problem }) };
}
