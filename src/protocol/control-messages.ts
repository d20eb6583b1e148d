import { z } from 'zod';
import { ActionRequest } from './action.ts';
import { ExpectedEffect } from './expectation.ts';
import { ApprovalDecision, ApprovalReceipt, ApprovalRequest } from './approval.ts';
import { AuditEntry } from './audit.ts';
import { ObservedState } from './observed-state.ts';
import { AgentId, Origin } from './primitives.ts';
import { ResourceScope } from './resource.ts';
import { PanelSiteAllow, PanelSiteRemove, PanelSites } from './site-access.ts';
import { ActionResult } from './results.ts';
import { DelegatedAgentToken, ScopeEntry, TokenId, TokenSecret } from './token.ts';

/**
 * Messages of the user's control room (side panel) and of the co-pilot, to the service worker.
 * Accepted only from the side panel page (sender check in src/background/senders.ts): a content
 * script or a page can never approve, mint a token, or submit as an agent.
 */

// ── approvals ────────────────────────────────────────────────────────────────────────────────
export const PanelListApprovals = z.object({ type: z.literal('panel/approvals') });
export const PanelDecideApproval = z.object({
  type: z.literal('panel/approval-decide'),
  decision: ApprovalDecision,
  /** "Approve for this resource for N minutes": a scoped receipt (pipeline caps it at 60 min). */
  window_ms: z.number().int().positive().max(60 * 60 * 1000).optional(),
});
export const ApprovalsResponse = z.object({ pending: z.array(ApprovalRequest) });

// ── tokens ───────────────────────────────────────────────────────────────────────────────────
export const PanelListTokens = z.object({ type: z.literal('panel/tokens'), agent_id: AgentId.optional() });
export const PanelMintToken = z.object({
  type: z.literal('panel/token-mint'),
  agent_id: AgentId,
  scope: z.array(ScopeEntry).min(1).max(64),
  resource_scope: ResourceScope,
  origins: z.array(Origin).min(1).max(32),
  payment: z.boolean().default(false),
  ttl_ms: z.number().int().positive(),
});
export const PanelRevokeToken = z.object({ type: z.literal('panel/token-revoke'), token_id: TokenId });
export const TokenWithUsage = z.object({
  token: DelegatedAgentToken,
  status: z.enum(['active', 'expired', 'revoked']),
  uses: z.number().int().nonnegative(),
});
export const TokensResponse = z.object({ tokens: z.array(TokenWithUsage) });

// ── audit ────────────────────────────────────────────────────────────────────────────────────
export const PanelAuditEntries = z.object({ type: z.literal('panel/audit'), limit: z.number().int().positive().max(10_000).optional() });
export const PanelAuditVerify = z.object({ type: z.literal('panel/audit-verify') });
export const PanelAuditExport = z.object({ type: z.literal('panel/audit-export') });
/** Checks an exported file: its entries, and that its last line is a head signed with this Steward's key. */
export const PanelAuditVerifyExport = z.object({ type: z.literal('panel/audit-verify-export'), jsonl: z.string().max(64_000_000) });
export const AuditEntriesResponse = z.object({ entries: z.array(AuditEntry) });
export const AuditVerifyResponse = z.object({
  ok: z.boolean(),
  entries: z.number().int().nonnegative(),
  /** Where the chain breaks and how, when it does. */
  broken_at: z.number().int().nonnegative().optional(),
  problem: z.string().optional(),
});
export const AuditExportResponse = z.object({ jsonl: z.string() });

// ── current tab ──────────────────────────────────────────────────────────────────────────────
export const PanelObserveTab = z.object({ type: z.literal('panel/observe-tab'), tabId: z.number().int() });
export const ObserveTabResponse = z.object({ state: ObservedState.nullable(), error: z.string().optional() });

// ── the co-pilot (an agent living in the side panel) ─────────────────────────────────────────
export const AgentSubmit = z.object({
  type: z.literal('agent/submit'),
  /** Which of Steward's own agents; the token must belong to it. */
  agent_id: AgentId,
  /**
   * The token secret shown once at minting (`stw_secret_…`), never the public token id. Any
   * string is accepted here so that a wrong one is the pipeline's TOKEN_INVALID, audited.
   */
  token: z.string().min(1).max(256),
  /** The tab the agent works in (the co-pilot's current tab). */
  tabId: z.number().int(),
  request: ActionRequest,
  /** Return APPROVAL_REQUIRED at once instead of waiting for the person. */
  wait_for_approval: z.boolean().default(true),
  /** The agent read this input from untrusted content (page text, a tool with untrustedContentHint). */
  untrusted_input: z.boolean().default(false),
  /**
   * The effect that would confirm the action (e.g. `{state: "cancelled"}`), from the agent's plan.
   * Optional (added later, backward compatible); kept in the journal so an action resolved after
   * a service-worker restart is confirmed against it, not merely inferred.
   */
  expect: ExpectedEffect.optional(),
});
export const AgentSubmitResponse = z.object({ result: ActionResult });

// ── replies not fixed above (added later, backward compatible) ─────────────────────────────
/** `panel/approval-decide`: the queue's decision, with the receipt when approved. */
export const DecideApprovalResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('approved'), receipt: ApprovalReceipt }),
  z.object({ status: z.literal('denied') }),
]);
/** `panel/token-mint` and `panel/token-revoke`: the token as it now stands. */
export const TokenChangeResponse = TokenWithUsage;
/** `panel/token-mint`: also the secret the agent presents, in this one reply and nowhere else. */
export const MintTokenResponse = TokenWithUsage.extend({ secret: TokenSecret });

export const ControlToBackground = z.discriminatedUnion('type', [
  PanelListApprovals,
  PanelDecideApproval,
  PanelListTokens,
  PanelMintToken,
  PanelRevokeToken,
  PanelAuditEntries,
  PanelAuditVerify,
  PanelAuditExport,
  PanelAuditVerifyExport,
  PanelObserveTab,
  PanelSites,
  PanelSiteAllow,
  PanelSiteRemove,
  AgentSubmit,
]);
export type ControlToBackground = z.infer<typeof ControlToBackground>;

/** Pushed to open panels so their views stay live. */
export const ControlPush = z.discriminatedUnion('type', [
  z.object({ type: z.literal('panel/approvals-changed') }),
  z.object({ type: z.literal('panel/tokens-changed') }),
  z.object({ type: z.literal('panel/audit-changed') }),
  z.object({ type: z.literal('panel/sites-changed') }),
]);
export type ControlPush = z.infer<typeof ControlPush>;
