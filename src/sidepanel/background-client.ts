import { z } from 'zod';
import type { ApprovalDecision } from '../protocol/approval.ts';
import {
  ApprovalsResponse,
  AuditEntriesResponse,
  AuditExportResponse,
  AuditVerifyResponse,
  ControlPush,
  DecideApprovalResponse,
  TokenChangeResponse,
  MintTokenResponse,
  ObserveTabResponse,
  TokensResponse,
  ControlToBackground,
} from '../protocol/control-messages.ts';
import { BackgroundToPanel, Reply, TabToolsResponse, type PanelToBackground } from '../protocol/messages.ts';
import type { TokenId } from '../protocol/token.ts';
import { ToolRunOutcome } from '../protocol/webmcp.ts';
import { SiteChangeResponse, SitesResponse } from '../protocol/site-access.ts';

/**
 * The panel's only door to the service worker. Every reply is validated with the protocol's
 * schemas before a view sees it: a reply that does not fit is an error, never half-trusted data.
 */
export class BackgroundError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What the panel sends (control messages before their defaults are applied). */
type Outgoing = PanelToBackground | z.input<typeof ControlToBackground>;

async function request<T extends z.ZodType>(message: Outgoing, data: T): Promise<z.infer<T>> {
  let raw: unknown;
  try {
    raw = await chrome.runtime.sendMessage(message);
  } catch (error) {
    throw new BackgroundError('UNREACHABLE', `Steward's background could not be reached: ${(error as Error).message}`);
  }
  const reply = Reply(data).safeParse(raw);
  if (!reply.success) {
    const issue = reply.error.issues[0];
    const where = issue?.path.length ? ` (${issue.path.join('.')}: ${issue.message})` : '';
    throw new BackgroundError('INVALID_REPLY', `The service worker answered ${message.type} with something unexpected${where}.`);
  }
  const parsed = reply.data as { ok: true; data: z.infer<T> } | { ok: false; error: { code: string; message: string } };
  if (!parsed.ok) throw new BackgroundError(parsed.error.code, parsed.error.message);
  return parsed.data;
}

// ── tools (existing) ─────────────────────────────────────────────────────────────────────────
export const getTabTools = (tabId: number) => request({ type: 'panel/get-tab-tools', tabId }, TabToolsResponse);

export const runTool = (tabId: number, frameId: number, name: string, input: Record<string, unknown>) =>
  request({ type: 'panel/run-tool', tabId, frameId, name, input }, ToolRunOutcome);

// ── approvals ────────────────────────────────────────────────────────────────────────────────
export const listApprovals = () => request({ type: 'panel/approvals' }, ApprovalsResponse);

/** Answers with `approved` (and the receipt) or `denied`; a stale or expired card is an error. */
export const decideApproval = (decision: ApprovalDecision, windowMs?: number) =>
  request({ type: 'panel/approval-decide', decision, ...(windowMs ? { window_ms: windowMs } : {}) }, DecideApprovalResponse);

// ── tokens ───────────────────────────────────────────────────────────────────────────────────
export const listTokens = () => request({ type: 'panel/tokens' }, TokensResponse);

/** Both answer with the token as it now stands (status and usage); minting also with its secret, this once. */
export const mintToken = (message: Extract<ControlToBackground, { type: 'panel/token-mint' }>) => request(message, MintTokenResponse);

export const revokeToken = (token_id: TokenId) => request({ type: 'panel/token-revoke', token_id }, TokenChangeResponse);

// ── audit ────────────────────────────────────────────────────────────────────────────────────
export const auditEntries = (limit?: number) => request({ type: 'panel/audit', ...(limit ? { limit } : {}) }, AuditEntriesResponse);
export const verifyAudit = () => request({ type: 'panel/audit-verify' }, AuditVerifyResponse);
export const exportAudit = () => request({ type: 'panel/audit-export' }, AuditExportResponse);
export const verifyAuditExport = (jsonl: string) => request({ type: 'panel/audit-verify-export', jsonl }, AuditVerifyResponse);

// ── current tab ──────────────────────────────────────────────────────────────────────────────
export const observeTab = (tabId: number) => request({ type: 'panel/observe-tab', tabId }, ObserveTabResponse);

// ── sites Steward may observe ──────────────────────────────────────────────────────────────
/** The allowed sites, and how the given tab stands (its origin, title, allowed, observed). */
export const listSites = (tabId?: number) => request({ type: 'panel/sites', ...(tabId !== undefined ? { tabId } : {}) }, SitesResponse);
export const allowSite = (origin: string) => request({ type: 'panel/site-allow', origin }, SiteChangeResponse);
export const removeSite = (origin: string) => request({ type: 'panel/site-remove', origin }, SiteChangeResponse);

// ── live pushes ──────────────────────────────────────────────────────────────────────────────
const Push = z.union([BackgroundToPanel, ControlPush]);
/** A push, or the panel's own note that the port came back (views then reload what they show). */
export type LiveEvent = z.infer<typeof Push> | { type: 'panel/reconnected' };

const listeners = new Set<(message: LiveEvent) => void>();
let port: chrome.runtime.Port | undefined;

/** One `panel` port shared by every view; reconnects when the service worker restarts. */
function connect(): void {
  port = chrome.runtime.connect({ name: 'panel' });
  port.onMessage.addListener((raw: unknown) => {
    const parsed = Push.safeParse(raw);
    if (parsed.success) for (const l of [...listeners]) l(parsed.data);
  });
  port.onDisconnect.addListener(() => {
    port = undefined;
    // A restarted worker has forgotten us: reconnect, and tell views to reload what they show.
    if (listeners.size > 0) {
      setTimeout(() => {
        if (listeners.size === 0 || port) return;
        connect();
        for (const l of [...listeners]) l({ type: 'panel/reconnected' });
      }, 250);
    }
  });
}

export function subscribe(onMessage: (message: LiveEvent) => void): () => void {
  listeners.add(onMessage);
  if (!port) connect();
  return () => {
    listeners.delete(onMessage);
    if (listeners.size === 0) {
      port?.disconnect();
      port = undefined;
    }
  };
}
