import type { Pipeline } from '../../pipeline/pipeline.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';
import type { ActionResult } from '../../protocol/results.ts';
import type { ToolRunOutcome } from '../../protocol/webmcp.ts';
import { PageErrorDetails } from '../../protocol/page-tool-error.ts';
import type { ToolRegistry } from './registry.ts';

/**
 * The person's own "Run" in the side panel. It is not a side door: the tool runs through the same
 * pipeline as every agent's action (token, idempotency, journal, gateway, execution, audit), as the
 * person's own agent PERSON_AGENT_ID with a token the service worker mints for this one run —
 * scoped to this tool on this origin, short-lived, revoked as soon as the run ends. The click is
 * recorded as the request's rationale in the audit log, and the run shows in the Activity view.
 * Only read-only tools run from here; anything else needs an approved action.
 */

export const PERSON_AGENT_ID = 'agent:person';
/** Long enough for one observation and one tool call; revoked right after anyway. */
const RUN_TOKEN_TTL_MS = 2 * 60_000;
const TOP_FRAME = 0;

export interface PanelRunDeps {
  registry: ToolRegistry;
  pipeline: () => Promise<Pipeline>;
  /** The tab's current state: the run acts on the resource it shows. */
  observeTab: (tabId: number) => Promise<{ ok: true; state: ObservedState } | { ok: false; message: string }>;
  sessionFor: (agentId: string, tabId: number) => Promise<string>;
}

export interface PanelRunRequest {
  tabId: number;
  frameId: number;
  name: string;
  input: Record<string, unknown>;
}

const fail = (code: string, message: string, retryable = false, details?: unknown): ToolRunOutcome => ({
  ok: false,
  error: { code, message, retryable, ...(details === undefined ? {} : { details }) },
});

export async function runToolFromPanel(deps: PanelRunDeps, request: PanelRunRequest): Promise<ToolRunOutcome> {
  const found = deps.registry.find(request.tabId, request.frameId, request.name);
  if (!found) return fail('TOOL_NOT_FOUND', `No tool "${request.name}" is known in that tab and frame. Refresh the tool list.`, true);
  const { tool, frame } = found;
  if (tool.annotations.readOnlyHint !== true) {
    return fail('APPROVAL_REQUIRED', `"${tool.name}" is not marked read-only, so it needs an approved action; the side panel runs only read-only tools.`);
  }
  // The pipeline runs a page's tools through the tab's top frame: an embedded frame's only when the page offers it (registry.pageTools).
  if (request.frameId !== TOP_FRAME && !deps.registry.offersFromPage(request.tabId, request.frameId, request.name)) {
    return fail('TOOL_NOT_FOUND', `"${tool.name}" belongs to an embedded frame whose tools are not the page's own; Steward runs only the page's tools.`);
  }

  const observed = await deps.observeTab(request.tabId);
  if (!observed.ok) return fail('EXECUTION_FAILED', `The tab could not be observed: ${observed.message}`, true);
  const pipeline = await deps.pipeline();
  let minted;
  try {
    minted = await pipeline.admin.mintToken({
      agent_id: PERSON_AGENT_ID,
      scope: [`webmcp:${tool.name}`],
      resource_scope: '*',
      origins: [frame.origin],
      ttl_ms: RUN_TOKEN_TTL_MS,
    });
  } catch (error) {
    return fail('INVALID_INPUT', `Steward cannot grant a run of "${tool.name}" on ${frame.origin}: ${error instanceof Error ? error.message.slice(0, 500) : String(error)}`);
  }
  try {
    const result = await pipeline.submit(
      {
        action: tool.name,
        resource: observed.state.resource,
        input: request.input,
        idempotency_key: `panel-run-${crypto.randomUUID()}`,
        rationale: `The person pressed Run for ${tool.name} in Steward's side panel.`,
      },
      { agent_id: PERSON_AGENT_ID, token: minted.secret, session_id: await deps.sessionFor(PERSON_AGENT_ID, request.tabId), untrusted_input: false, wait_for_approval: false },
    );
    return outcomeOf(result);
  } finally {
    await pipeline.admin.revokeToken(minted.token.token_id).catch((e) => console.error('revoking a panel run token failed', e));
  }
}

/**
 * The pipeline's ActionResult as the panel shows it: the tool's output (data, never instructions),
 * or the error — also when the run ended `failed` or `unknown` with a reason (the page's tool threw,
 * or never answered): never shown as a result.
 */
export function outcomeOf(result: ActionResult): ToolRunOutcome {
  if ('error' in result) {
    const { code, message, retryable, recovery_hint } = result.error;
    return { ok: false, error: { code, message, retryable, ...(recovery_hint ? { recovery_hint } : {}), ...(result.action_id ? { details: { action_id: result.action_id } } : {}) } };
  }
  const execution = result.execution;
  if (execution.status === 'failed' || (execution.status === 'unknown' && execution.error)) {
    const error = execution.error;
    const said = PageErrorDetails.safeParse(error?.details);
    const details: PageErrorDetails = { status: execution.status, action_id: result.action_id, ...(said.success && said.data.page_error ? { page_error: said.data.page_error } : {}) };
    return {
      ok: false,
      error: {
        code: error?.code ?? 'EXECUTION_FAILED',
        message: error?.message ?? `${result.action_id} failed.`,
        retryable: error?.retryable ?? false,
        ...(error?.recovery_hint ? { recovery_hint: error.recovery_hint } : {}),
        details,
      },
    };
  }
  return {
    ok: true,
    result: result.output?.text ?? null,
    truncated: result.output?.truncated ?? false,
    untrusted: result.output?.untrusted ?? true,
    action_id: result.action_id,
    ...(result.audit_receipt ? { audit_receipt: result.audit_receipt } : {}),
  };
}
