import type { AuditExportTarget } from '../protocol/audit-export.ts';
import { channelClient, type Data, type PayloadInput } from '../protocol/channel.ts';
import type { ApprovalDecision } from '../protocol/approval.ts';
import { PANEL_PORT, PanelPush, PanelRequests } from '../protocol/panel-channel.ts';
import type { TokenId } from '../protocol/token.ts';
import type { AgentId } from '../protocol/primitives.ts';
import type { ModelProvider } from '../protocol/copilot.ts';
import type { MintMessage } from './lib/mint-form.ts';
import type { Runtime } from 'webextension-polyfill';
import { browser } from './browser.ts';
import { t } from '../base/i18n.ts';
import { refusalWithRecord } from './lib/refusal-words.ts';
import { refusalDetails } from './refusal-details-store.ts';

/**
 * The panel's only door to the service worker: the panel channel (src/protocol/panel-channel.ts).
 * Every reply is parsed with its request's own reply schema before a view sees it: a reply that
 * does not fit is an error, never half-trusted data. A refusal's `message` is already in the
 * person's language (lib/refusal-words.ts), so a view shows it as it is.
 */
class BackgroundError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const worker = channelClient(PanelRequests, async (message) => {
  try {
    return await browser.runtime.sendMessage(message);
  } catch (error) {
    throw new BackgroundError('UNREACHABLE', t('panel_background_unreachable', (error as Error).message));
  }
});

/** One request to the worker: its data, or a BackgroundError with the worker's (or the reply check's) code. */
async function call<K extends keyof PanelRequests & string>(type: K, payload: PayloadInput<PanelRequests, K>): Promise<Data<PanelRequests, K>> {
  const reply = await worker.call(type, payload);
  if (reply.ok) return reply.data;
  if (reply.error.code === 'INVALID_REPLY') throw new BackgroundError(reply.error.code, t('panel_unexpected_reply', type));
  const { words, record } = refusalWithRecord(reply.error);
  // The views print the sentence alone: English it leaves out stays one click away above them.
  if (record !== undefined) refusalDetails.value = { words, record };
  throw new BackgroundError(reply.error.code, words);
}

// Named for the views: each is one `call`.
export const getTabTools = (tabId: number) => call('panel/get-tab-tools', { tabId });
export const runTool = (tabId: number, frameId: number, name: string, input: Record<string, unknown>) => call('panel/run-tool', { tabId, frameId, name, input });
export const listApprovals = () => call('panel/approvals', {});
/** Answers with `approved` (and the receipt) or `denied`; a stale or expired card is an error. */
export const decideApproval = (decision: ApprovalDecision, windowMs?: number) => call('panel/approval-decide', { decision, ...(windowMs ? { window_ms: windowMs } : {}) });
export const listTokens = () => call('panel/tokens', {});
/** Both answer with the token as it now stands (status and usage); minting also with its secret, this once. */
export const mintToken = ({ type, ...payload }: MintMessage) => call(type, payload);
export const revokeToken = (token_id: TokenId) => call('panel/token-revoke', { token_id });
/** The person clears an agent's taint (audited). */
export const clearTaint = (agent_id: AgentId) => call('panel/taint-clear', { agent_id });
export const auditEntries = (limit?: number) => call('panel/audit', limit ? { limit } : {});
export const verifyAudit = () => call('panel/audit-verify', {});
export const exportAudit = () => call('panel/audit-export', {});
export const verifyAuditExport = (jsonl: string) => call('panel/audit-verify-export', { jsonl });
/** How many days of audit Steward keeps (null: all); setting it removes older entries at once. */
export const auditRetention = () => call('panel/audit-retention', {});
export const setAuditRetention = (days: number | null) => call('panel/audit-retention-set', { days });
export const clearAuditLog = () => call('panel/audit-clear', {});
/** Steward's durable memory, one entry's deletion, and forgetting a whole site (grants, memory). */
export const memoryEntries = () => call('panel/memory', {});
export const deleteMemory = (id: string) => call('panel/memory-delete', { id });
export const forgetSite = (origin: string) => call('panel/site-forget', { origin });
export const observeTab = (tabId: number) => call('panel/observe-tab', { tabId });
/** The allowed sites, and how the given tab stands (its origin, title, allowed, observed). */
export const listSites = (tabId?: number) => call('panel/sites', tabId !== undefined ? { tabId } : {});
export const allowSite = (origin: string) => call('panel/site-allow', { origin });
export const removeSite = (origin: string) => call('panel/site-remove', { origin });
/** MCP clients waiting to pair, the person's decision on one (a wrong code is refused: PAIRING_CODE_MISMATCH), and the bridge's link. */
export const listPairings = () => call('panel/pairings', {});
export const refusePairingSource = (source: string) => call('panel/pairings-refuse-source', { source });
export const decidePairing = (pairing_id: string, decision: PayloadInput<PanelRequests, 'panel/pairing-decide'>['decision']) => call('panel/pairing-decide', { pairing_id, decision });
export const bridgeStatus = () => call('panel/bridge-status', {});
export const auditExportStatus = () => call('panel/audit-export-status', {});
export const setAuditExportTarget = (target: AuditExportTarget | null) => call('panel/audit-export-target', { target });
/** Sites with an agent contract: the tab's site (null: it offers none), every site Steward holds a grant for, connect with the person's consent, disconnect. */
export const contractSite = (tabId: number) => call('panel/contract-site', { tabId });
export const contractSites = () => call('panel/contract-sites', {});
export const connectContract = (request: PayloadInput<PanelRequests, 'panel/contract-connect'>) => call('panel/contract-connect', request);
export const disconnectContract = (origin: string) => call('panel/contract-disconnect', { origin });
/** The co-pilot: each answers with the run as it now stands (the worker also pushes every change). */
export const startCopilot = (tabId: number, goal: string) => call('copilot/start', { tabId, goal });
export const steerCopilot = (type: 'copilot/pause' | 'copilot/resume' | 'copilot/stop' | 'copilot/take-over', run_id: string) => call(type, { run_id });
export const answerCopilot = (run_id: string, answer: string) => call('copilot/answer', { run_id, answer });
export const copilotRuns = (tabId?: number) => call('copilot/runs', tabId !== undefined ? { tabId } : {});
/** Stores the key in the worker ('' forgets it); the key never comes back. */
export const setModelKey = (provider: ModelProvider, key: string) => call('copilot/set-key', { provider, key });
export const modelStatus = () => call('copilot/model-status', {});
export const checkModel = () => call('copilot/check-model', {});

// ── live pushes ──────────────────────────────────────────────────────────────────────────────
/** A push, or the panel's own note that the port came back (views then reload what they show). */
export type LiveEvent = PanelPush | { type: 'panel/reconnected' };

const listeners = new Set<(message: LiveEvent) => void>();
let port: Runtime.Port | undefined;

/** One PANEL_PORT shared by every view; reconnects when the service worker restarts. */
function connect(): void {
  port = browser.runtime.connect({ name: PANEL_PORT });
  port.onMessage.addListener((raw: unknown) => {
    const parsed = PanelPush.safeParse(raw);
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
