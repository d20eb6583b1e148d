import { z } from 'zod';
import { ActionRequest } from './action.ts';
import { CopilotPush, CopilotRequests } from './copilot.ts';
import { ApprovalDecision, ApprovalReceipt, ApprovalRequest } from './approval.ts';
import { ContractConnectRequest, ContractPanelError, ContractSiteView } from './agent-contract.ts';
import { AuditExportStatus, AuditExportTarget } from './audit-export.ts';
import { BridgeStatus, PairingGrant, PairingId, PairingView } from './bridge.ts';
import { AuditEntry, RetentionDays } from './audit.ts';
import type { RequestMap } from './channel.ts';
import { ExpectedEffect } from './expectation.ts';
import { DurableMemoryRecord, MemoryId } from './memory.ts';
import { PageSnapshotSchema, QueryResponse, SnapshotQuerySchema } from './messages.ts';
import { ObservedState } from './observed-state.ts';
import { AgentId, IsoDateTime, JsonObject, Origin } from './primitives.ts';
import { ResourceScope } from './resource.ts';
import { ActionResult } from './results.ts';
import { TabSiteStatus } from './site-access.ts';
import { DelegatedAgentToken, ScopeEntry, TokenId, TokenSecret } from './token.ts';
import { FrameTools, ToolRunOutcome } from './webmcp.ts';
import { Phrase } from './phrase.ts';

/**
 * The side panel ↔ service worker channel: the person's control room (tools, approvals, tokens,
 * audit, sites, the current tab) and the co-pilot that lives in the panel. Accepted only from
 * the side panel page (sender check in src/background/core/channels.ts): a content script or a page
 * can never approve, mint a token, or submit as an agent.
 */

/** The port open panels hold, over which the worker pushes PanelPush. */
export const PANEL_PORT = 'panel';

// ── replies ─────────────────────────────────────────────────────────────────────────────────
const TabToolsResponse = z.object({ frames: z.array(FrameTools) });
type TabToolsResponse = z.infer<typeof TabToolsResponse>;
const ApprovalsResponse = z.object({ pending: z.array(ApprovalRequest) });
/** The queue's decision, with the receipt when approved. */
const DecideApprovalResponse = z.discriminatedUnion('status', [z.object({ status: z.literal('approved'), receipt: ApprovalReceipt }), z.object({ status: z.literal('denied') })]);
export const TokenWithUsage = z.object({
  token: DelegatedAgentToken,
  status: z.enum(['active', 'expired', 'revoked']),
  uses: z.number().int().nonnegative(),
  /** Page content has reached the token's agent: since when, and what (only the person clears it). */
  taint: z.object({ at: IsoDateTime, source: z.string().max(400), source_said: Phrase.optional() }).optional(),
});
export type TokenWithUsage = z.infer<typeof TokenWithUsage>;
const TokensResponse = z.object({ tokens: z.array(TokenWithUsage) });
/** Minting also answers with the secret the agent presents, in this one reply and nowhere else. */
const MintTokenResponse = TokenWithUsage.extend({ secret: TokenSecret });
const AuditEntriesResponse = z.object({ entries: z.array(AuditEntry) });
export const AuditVerifyResponse = z.object({
  ok: z.boolean(),
  entries: z.number().int().nonnegative(),
  /** Where the chain breaks and how, when it does. */
  broken_at: z.number().int().nonnegative().optional(),
  problem: z.string().optional(),
  /** `problem`'s kind as a phrase, for the panel (src/protocol/phrase.ts). */
  problem_said: Phrase.optional(),
  /** Older entries were removed through this seq (retention or clear): the chain is checked from its recorded start. */
  removed_through: z.number().int().nonnegative().optional(),
});
export type AuditVerifyResponse = z.infer<typeof AuditVerifyResponse>;
const AuditExportResponse = z.object({ jsonl: z.string() });
/** Days of audit Steward keeps; null: all of it. */
const RetentionSetting = z.object({ days: RetentionDays.nullable() });
/** What a retention run or a clear removed, and what it kept because the audit export still needs it. */
export const AuditRemovalResponse = z.object({ removed: z.number().int().nonnegative(), kept_for_export: z.number().int().nonnegative() });
export type AuditRemovalResponse = z.infer<typeof AuditRemovalResponse>;
const ObserveTabResponse = z.object({
  state: ObservedState.nullable(),
  error: z.string().optional(),
  /** `error` as a phrase for the panel; one that does not fit is dropped and the English shown. */
  error_said: Phrase.optional().catch(undefined),
});
export const SitesResponse = z.object({
  /** Listed and granted by Chrome: Steward reads them. */
  allowed: z.array(Origin),
  /** Listed, but Chrome no longer grants them (taken back in chrome://extensions): read again once the person allows them again. */
  waiting: z.array(Origin),
  /** Listed by the person, but the organisation's policy blocks them (or does not list them): never read. */
  refused_by_policy: z.array(Origin).default([]),
  /** Chrome still grants every http(s) site, carried over from a version that asked for it at install. */
  broad: z.boolean(),
  tab: TabSiteStatus.optional(),
});
export type SitesResponse = z.infer<typeof SitesResponse>;
export const SiteChangeResponse = z.object({
  allowed: z.array(Origin),
  /** Open tabs of the origin where observation started (allow) or stops with their next load (remove). */
  tabs: z.number().int().nonnegative(),
});
export type SiteChangeResponse = z.infer<typeof SiteChangeResponse>;

// ── requests with more than a field or two ───────────────────────────────────────────────────
export const MintTokenRequest = z.object({
  agent_id: AgentId,
  scope: z.array(ScopeEntry).min(1).max(64),
  resource_scope: ResourceScope,
  origins: z.array(Origin).min(1).max(32),
  payment: z.boolean().default(false),
  ttl_ms: z.number().int().positive(),
  /** Who the token is for, in the person's words (an MCP client's name). */
  label: z.string().min(1).max(120).optional(),
});

const AgentSubmitRequest = z.object({
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
   * The effect that would confirm the action (e.g. `{state: "cancelled"}`), from the agent's plan;
   * kept in the journal so an action resolved after a service-worker restart is confirmed against
   * it, not merely inferred.
   */
  expect: ExpectedEffect.optional(),
});

const none = z.object({});
const tabId = z.number().int();

export const PanelRequests = {
  // tools
  'panel/get-tab-tools': { request: z.object({ tabId }), reply: TabToolsResponse },
  /** The person's Run, through the pipeline like any agent's action. */
  'panel/run-tool': { request: z.object({ tabId, frameId: z.number().int(), name: z.string().min(1), input: JsonObject }), reply: ToolRunOutcome },
  // the current tab
  /** The raw page snapshot of a tab (the fused ObservedState is `panel/observe-tab`). */
  'panel/snapshot-tab': { request: z.object({ tabId, full: z.boolean().optional() }), reply: PageSnapshotSchema },
  'panel/query-tab': { request: z.object({ tabId, documentToken: z.string().max(64).optional(), query: SnapshotQuerySchema }), reply: QueryResponse },
  'panel/observe-tab': { request: z.object({ tabId }), reply: ObserveTabResponse },
  // approvals
  'panel/approvals': { request: none, reply: ApprovalsResponse },
  'panel/approval-decide': {
    request: z.object({
      decision: ApprovalDecision,
      /** "Approve for this resource for N minutes": a scoped receipt (pipeline caps it at 60 min). */
      window_ms: z
        .number()
        .int()
        .positive()
        .max(60 * 60 * 1000)
        .optional(),
    }),
    reply: DecideApprovalResponse,
  },
  // tokens
  'panel/tokens': { request: z.object({ agent_id: AgentId.optional() }), reply: TokensResponse },
  'panel/token-mint': { request: MintTokenRequest, reply: MintTokenResponse },
  /** Answers with the token as it now stands. */
  'panel/token-revoke': { request: z.object({ token_id: TokenId }), reply: TokenWithUsage },
  /** The person says the agent's context is clean again: its taint is dropped, with an audit entry. */
  'panel/taint-clear': { request: z.object({ agent_id: AgentId }), reply: z.object({ cleared: z.boolean() }) },
  // audit
  'panel/audit': { request: z.object({ limit: z.number().int().positive().max(10_000).optional() }), reply: AuditEntriesResponse },
  'panel/audit-verify': { request: none, reply: AuditVerifyResponse },
  'panel/audit-export': { request: none, reply: AuditExportResponse },
  /** Checks an exported file: its entries, and that its last line is a head signed with this Steward's key. */
  'panel/audit-verify-export': { request: z.object({ jsonl: z.string().max(64_000_000) }), reply: AuditVerifyResponse },
  /** How many days of audit Steward keeps (Settings). */
  'panel/audit-retention': { request: none, reply: RetentionSetting },
  /** Sets the retention (null: keep everything) and applies it at once; older entries go, the chain's start is recorded. */
  'panel/audit-retention-set': { request: RetentionSetting, reply: RetentionSetting.extend(AuditRemovalResponse.shape) },
  /** The person's "clear": every entry goes, and the log restarts from one entry recording it (audit-retention.ts). */
  'panel/audit-clear': { request: none, reply: AuditRemovalResponse },
  // what Steward remembers (durable memory), and forgetting a site
  'panel/memory': { request: none, reply: z.object({ entries: z.array(z.object({ record: DurableMemoryRecord, expired: z.boolean() })) }) },
  /** Deletes one memory entry (audited: which, never its content). */
  'panel/memory-delete': { request: z.object({ id: MemoryId }), reply: z.object({ deleted: z.boolean() }) },
  /**
   * "Forget this site": off Steward's list and Chrome's permission, its agent-contract grant
   * revoked and dropped, its memory deleted; one audit entry says so. Agents its content reached
   * stay tainted (named here; the person clears them per agent).
   */
  'panel/site-forget': {
    request: z.object({ origin: Origin }),
    reply: z.object({ site_removed: z.boolean(), grant_removed: z.boolean(), memory_removed: z.number().int().nonnegative(), tainted_agents: z.array(AgentId) }),
  },
  // sites Steward may observe
  'panel/sites': { request: z.object({ tabId: tabId.optional() }), reply: SitesResponse },
  'panel/site-allow': { request: z.object({ origin: Origin }), reply: SiteChangeResponse },
  'panel/site-remove': { request: z.object({ origin: Origin }), reply: SiteChangeResponse },
  // MCP clients pairing through the bridge (src/protocol/bridge.ts)
  'panel/pairings': { request: none, reply: z.object({ pending: z.array(PairingView) }) },
  /**
   * Accept with the code the client shows and the token the person chose, or deny. A wrong code
   * is the refusal PAIRING_CODE_MISMATCH (the third ends the request: PAIRING_REFUSED).
   */
  'panel/pairing-decide': {
    request: z.object({
      pairing_id: PairingId,
      decision: z.discriminatedUnion('accept', [z.object({ accept: z.literal(true), code: z.string().max(16), grant: PairingGrant }), z.object({ accept: z.literal(false) })]),
    }),
    reply: z.discriminatedUnion('status', [z.object({ status: z.literal('paired'), token: TokenWithUsage }), z.object({ status: z.literal('denied') })]),
  },
  /** Refuses every request still waiting from one source (a flood, in one click); that source's later requests are refused until it reconnects. */
  'panel/pairings-refuse-source': { request: z.object({ source: z.string().min(1).max(240) }), reply: z.object({ refused: z.number().int().nonnegative() }) },
  'panel/bridge-status': { request: none, reply: BridgeStatus },
  // the audit export to the organisation's syslog collector (src/protocol/audit-export.ts)
  'panel/audit-export-status': { request: none, reply: AuditExportStatus },
  /** Sets (or with null, stops) the export; answers with the status afterwards. */
  'panel/audit-export-target': { request: z.object({ target: AuditExportTarget.nullable() }), reply: AuditExportStatus },
  // sites that publish an agent contract (the contract path, src/protocol/agent-contract.ts)
  /** The contract the tab's site offers (discovered on its pages), and any grant Steward holds for it. */
  'panel/contract-site': { request: z.object({ tabId }), reply: z.object({ site: ContractSiteView.nullable() }) },
  /** Every site Steward holds (or held) a grant for. */
  'panel/contract-sites': { request: none, reply: z.object({ sites: z.array(ContractSiteView) }) },
  /** The person consents: Steward asks the site for a token bound to its agent key, with the person's session on the site. */
  'panel/contract-connect': {
    // Not strict here: the channel's message carries its `type` beside the payload, which a strict schema refuses.
    request: z.object(ContractConnectRequest.shape),
    reply: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), site: ContractSiteView }), z.object({ ok: z.literal(false), error: ContractPanelError })]),
  },
  /** Revokes the token at the site and forgets it. */
  'panel/contract-disconnect': {
    request: z.object({ origin: z.string().url().max(2048) }),
    reply: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false), error: ContractPanelError })]),
  },
  // the co-pilot (an agent living in the side panel)
  'agent/submit': { request: AgentSubmitRequest, reply: z.object({ result: ActionResult }) },
  ...CopilotRequests,
} satisfies RequestMap;
export type PanelRequests = typeof PanelRequests;

/** Pushed to open panels so their views stay live. */
export const PanelPush = z.discriminatedUnion('type', [
  z.object({ type: z.literal('panel/tools-changed'), tabId }),
  z.object({ type: z.literal('panel/approvals-changed') }),
  z.object({ type: z.literal('panel/tokens-changed') }),
  z.object({ type: z.literal('panel/audit-changed') }),
  z.object({ type: z.literal('panel/sites-changed') }),
  z.object({ type: z.literal('panel/pairings-changed') }),
  z.object({ type: z.literal('panel/bridge-changed') }),
  z.object({ type: z.literal('panel/audit-export-changed') }),
  z.object({ type: z.literal('panel/contracts-changed') }),
  z.object({ type: z.literal('panel/memory-changed') }),
  CopilotPush,
]);
export type PanelPush = z.infer<typeof PanelPush>;
