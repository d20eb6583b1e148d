import type { AgentContext } from '../pipeline/agent-context.ts';
import type { ActionStatus } from '../pipeline/pipeline.ts';
import type { AgentRecords } from '../pipeline/agent-records.ts';
import type { AvailableAction } from '../protocol/action.ts';
import type { BridgeTab } from '../protocol/bridge.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import type { ResourceRef } from '../protocol/resource.ts';
import type { ActionResult } from '../protocol/results.ts';
import type { PageSnapshot } from '../protocol/snapshot.ts';
import type { DelegatedAgentToken } from '../protocol/token.ts';
import type { Phrase } from '../protocol/phrase.ts';

/**
 * What an external agent's calls (src/mcp/agent-calls.ts) need of the browser and the
 * pipeline. The service worker binds them to Chrome (src/background/mcp/agent-ports.ts); tests
 * bind them to fakes. Tab ids and URLs here are the browser's, before any filtering: the calls
 * decide what the agent may see.
 */

/** A browser tab as the browser reports it. */
export interface BrowserTab {
  tab_id: number;
  url: string;
  title: string;
  active: boolean;
}

type TokenCheck = { ok: true; token: DelegatedAgentToken } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'corrupt' };

type Observed = { ok: true; state: ObservedState; snapshot: PageSnapshot } | { ok: false; error: { code: string; message: string; retryable: boolean } };

export type TabImage =
  { ok: true; url: string; mime_type: 'image/png' | 'image/jpeg'; data: string; width?: number; height?: number } | { ok: false; code: string; message: string; retryable: boolean };

export interface AgentCallPorts {
  /** The token a presented secret belongs to, if it may be used now. */
  authenticate(secret: string): Promise<TokenCheck>;
  /** The person's allowed sites (origins). */
  allowedSites(): Promise<string[]>;
  tabs(): Promise<BrowserTab[]>;
  /** What Steward last saw in the tab, if it has looked at its current page (no new observation). */
  lastSeen(tabId: number, url: string): BridgeTab['resource'] | undefined;
  /**
   * Focuses the tab showing exactly this URL (unless `newTab`), else opens one; resolves once loaded.
   * The load is fenced to `origins`: a redirect hop elsewhere is stopped before its request leaves
   * (`left` names the origin it was stopped at).
   */
  open(url: string, newTab: boolean, origins: readonly string[]): Promise<{ tab: BrowserTab; created: boolean } | { error: string } | { left: string }>;
  /** A fresh observation as an agent receives it (no debugging tools unless the person allows). */
  observe(tabId: number): Promise<Observed>;
  /**
   * The WebMCP tools the tab's page offers (the tool registry: what its content script last
   * reported), as actions with Steward's reading of their risk; the page's debugging tools only
   * when the person shows them to agents. Undefined when the tab's page reported none.
   */
  pageTools(tabId: number): Promise<{ url: string; actions: AvailableAction[] } | undefined>;
  /** The visible part of the tab, which must be the one showing in its window. */
  screenshot(tabId: number): Promise<TabImage>;
  /** `said`: the source as a phrase, for the panel to say in the person's language. */
  taint(agentId: string, source: string, said: Phrase): Promise<void>;
  tainted(agentId: string): Promise<boolean>;
  currentTab(agentId: string): Promise<number | undefined>;
  setCurrentTab(agentId: string, tabId: number): Promise<void>;
  /** The resource the agent's last look at the tab showed it: what a steward_execute naming no resource acts on. */
  shownResource(agentId: string, tabId: number): Promise<ResourceRef | undefined>;
  setShownResource(agentId: string, tabId: number, resource: ResourceRef): Promise<void>;
  /** The agent's session in a tab (-1: no tab yet; the navigator opens one). */
  sessionFor(agentId: string, tabId: number): Promise<string>;
  submit(request: unknown, agent: AgentContext): Promise<ActionResult>;
  /** The action's status, only when this agent submitted it. */
  actionStatus(agentId: string, actionId: string): Promise<ActionStatus | undefined>;
  /** Resolves when the action's wait for the person and its run end, or after `ms`, whichever is first. */
  actionSettled(actionId: string, ms: number): Promise<void>;
  records(agentId: string): Promise<AgentRecords>;
  /** Something the audit log shows changed (open panels refresh). */
  auditChanged(): void;
}
