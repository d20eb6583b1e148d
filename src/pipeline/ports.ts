import type { ActionListItem, AvailableAction } from '../protocol/action.ts';
import type { ApprovalRequest } from '../protocol/approval.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import type { ResourceRef, Source, StateName, StateVersion } from '../protocol/resource.ts';
import type { Effect, ToolOutput } from '../protocol/results.ts';
import type { ToolDescriptor } from '../protocol/webmcp.ts';
import type { ExpectedEffect } from '../protocol/expectation.ts';
import type { PageToolError } from '../protocol/page-tool-error.ts';
import type { SiteErrorBody } from '../protocol/agent-contract.ts';
import type { ActSettle, WriteRequest } from '../protocol/messages.ts';
import type { ActRefusalPhrase } from '../protocol/act-refusal.ts';

/** What the page said about a DOM act beyond its steps: how it came to rest, and the requests it set off that may have written. */
export interface PageActivity {
  settle?: ActSettle;
  requests?: WriteRequest[];
}

/**
 * Everything the pipeline needs from the browser, as injected interfaces. The service worker
 * implements them with chrome.* and content-script messages; tests and the benchmark with fakes.
 * No port ever receives or returns a tab id: the service worker maps `session_id` to the tab it
 * works in, and a lost tab is simply a location the navigator must reach again.
 */

/** Who is acting, passed to every port so the service worker can pick the agent's working tab. */
export interface PortContext {
  agent_id: string;
  session_id?: string;
  action_id?: string;
}

/** Where a resource's state is read: the agent's working tab, or a site contract's resource endpoint. */
export type Location = { kind: 'tab' } | { kind: 'contract'; url: string };

interface ObservePort {
  /**
   * A fresh ObservedState (never a cached one) of `where`, or null when nothing can be observed
   * (no tab, page failed, endpoint unreachable). `resource` tells the observer which resource
   * the caller is after when a page shows several. Rejects with DeadlineExceeded (deadline.ts)
   * when the page did not answer in time.
   */
  observe(where: Location, resource: ResourceRef, ctx: PortContext): Promise<ObservedState | null>;
}

export interface NavigatePort {
  /**
   * Loads `url` in the agent's working tab (opening one if needed) and resolves once it has loaded.
   * Every hop stays on `origins`: a redirect elsewhere is stopped before its request leaves (rejects).
   */
  navigate(url: string, ctx: PortContext, origins: readonly string[]): Promise<void>;
}

/** One way to reach a resource from the resource/action graph, most authoritative first. */
export type Route = { kind: 'site_contract'; url: string } | { kind: 'adapter'; url: string };

interface RoutesPort {
  /**
   * Known ways to reach the resource: a contract's resource endpoint (`GET /agent/v1/resources/
   * {type}/{id}`) and adapters' URL templates filled with the id. Remembered URLs come from memory.
   */
  routes(resource: ResourceRef, ctx: PortContext): Promise<Route[]>;
}

/** What an executor is asked to run: one action, already authorised, on one path. */
export interface ExecutionCall {
  action_id: string;
  action: string;
  resource: ResourceRef;
  input: Record<string, unknown>;
  idempotency_key: string;
  via: Source;
  description: AvailableAction;
  /** The WebMCP tool, on that path. */
  tool?: ToolDescriptor;
  agent_id: string;
  token_id: string;
  receipt_id?: string;
  /**
   * A click in a form (or an Enter that submits it) approved with these values: the executor acts
   * only if the form still holds exactly them at that moment (form-binding.ts).
   */
  form?: Array<{ ref: string; value?: string; check?: 'checked' | 'mixed' }>;
  /** The element Steward judged a DOM action by when the request names none (dom.press: the focused element). */
  target_ref?: string;
  location: Location;
  ctx: PortContext;
  /** The observation the action was planned on: an executor refuses to run on a page that no longer shows it. */
  observed?: { url: string; state_version: StateVersion };
  /** The token's origins, re-checked by an executor against the document it is about to run on. */
  allowed_origins?: readonly string[];
}

export type ExecutionReport =
  /** The site confirmed the effect (only honoured from the site_contract executor). */
  | {
      outcome: 'confirmed';
      resource_state?: { state: StateName; state_version: StateVersion };
      effects?: Effect[];
      available_actions?: ActionListItem[];
    }
  /** The site accepted it, or a declarative form waits for the user: pending, not done. */
  | { outcome: 'accepted'; status_url?: string; resource_state?: { state: StateName; state_version: StateVersion } }
  /** It ran (tool returned, element clicked, adapter action performed); the effect is verified by re-observing. */
  | { outcome: 'completed'; output?: ToolOutput; expect?: ExpectedEffect; activity?: PageActivity }
  /**
   * It did not run, or failed midway (`side_effect_possible`). `code` TOOL_NOT_FOUND: refused
   * before sending, because the page no longer offers what the agent was shown. SITE_NOT_ALLOWED:
   * a navigation it caused was stopped before reaching `origin`. `page_error`: the
   * page's own tool said it failed (threw, or answered isError) — its words, bounded.
   */
  | {
      outcome: 'failed';
      message: string;
      /** `message` as a phrase for the side panel (a DOM step's refusal: src/protocol/act-refusal.ts); never sent to agents. */
      message_said?: ActRefusalPhrase;
      side_effect_possible: boolean;
      code?: 'TOOL_NOT_FOUND' | 'SITE_NOT_ALLOWED';
      /** SITE_NOT_ALLOWED: the origin a navigation was stopped before reaching. */
      origin?: string;
      page_error?: PageToolError;
      /** The site's own refusal on the contract path (412 with its current state, 401 with why): reported to the agent as the site's error. */
      site_error?: SiteErrorBody;
      activity?: PageActivity;
    }
  /** Sent, but the page did not answer within its deadline: it may or may not have run. */
  | { outcome: 'timed_out'; message: string };

/** An action a path accepted but had not finished: where its outcome can be asked for. */
export interface StatusCall {
  action_id: string;
  resource: ResourceRef;
  /** The status URL the path reported when it accepted the action. */
  status_url: string;
  agent_id: string;
  ctx: PortContext;
}

/** An action an earlier service worker dispatched, as recovery asks its path to take it up again. */
export interface ResumeCall {
  action_id: string;
  action: string;
  input: Record<string, unknown>;
  idempotency_key: string;
  ctx: PortContext;
  /** The token's origins: the path keeps the tab on them while it finishes. */
  allowed_origins?: readonly string[];
}

/** A dispatched action its path goes on with after a restart: how it was planned, and its report once it ends. */
export interface ResumedExecution {
  planned: Pick<ExecutionCall, 'description' | 'tool' | 'observed'>;
  ended: Promise<ExecutionReport>;
}

export interface Executor {
  execute(call: ExecutionCall): Promise<ExecutionReport>;
  /**
   * After a service-worker restart: an action this path dispatched that it can still finish (a
   * page's WebMCP tool that asked to continue in its next document, whose token waits), taken up
   * without running again what already ran. undefined when the path holds nothing for it.
   */
  resume?(call: ResumeCall): Promise<ResumedExecution | undefined>;
  /**
   * The path's own word on an accepted action (the site_contract path polls the site's status
   * endpoint): `confirmed` / `failed` settle it, `accepted` means not yet. Never runs anything.
   */
  status?(call: StatusCall): Promise<ExecutionReport>;
  /**
   * The person's Stop while the action runs (it was dispatched): the path tells what it runs to
   * stop (a page's tool hears it through its abort signal). Whether anything was running for it.
   */
  cancel?(actionId: string): Promise<boolean>;
}

/** One executor per path; a missing path is simply unavailable. */
export type Executors = Partial<Record<Source, Executor>>;

/** Tells the side panel about approval cards; the panel decides through ApprovalQueue.decide(). */
export interface ApprovalNotifier {
  queued(request: ApprovalRequest): void;
  settled(requestId: string, status: 'approved' | 'denied' | 'expired'): void;
}

export interface PipelinePorts extends ObservePort, NavigatePort {
  routes?: RoutesPort['routes'];
  executors: Executors;
}
