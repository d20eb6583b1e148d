import { isDomAction } from '../protocol/action-name.ts';
import { describesRequest, type ActionRequest, type ActionSummary, type AvailableAction } from '../protocol/action.ts';
import { makeError, type StewardError } from '../protocol/errors.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import type { Source } from '../protocol/resource.ts';
import type { ToolDescriptor } from '../protocol/webmcp.ts';
import { validateToolInput } from '../webmcp/validate-input.ts';
import { classifyDom, type DomClassification } from './policy/dom-risk.ts';
import { approvalReasons } from './policy/risk.ts';
import type { Executors } from './ports.ts';

/** DOM actions whose risk depends on their input more than on their element (dom-risk.ts). */
const INPUT_DEPENDENT: ReadonlySet<string> = new Set(['dom.press']);

/** The four paths, most authoritative first (DESIGN §1). */
const AUTHORITY: readonly Source[] = ['site_contract', 'webmcp', 'adapter', 'legacy_inference'];

export interface Capability {
  description: AvailableAction;
  tool?: ToolDescriptor;
  dom?: DomClassification;
}

export type CapabilityOutcome = { ok: true; capability: Capability } | { ok: false; error: StewardError; available_actions?: ActionSummary[] };

/** A WebMCP tool as an action description, judged by its annotations. */
function describeTool(tool: ToolDescriptor): AvailableAction {
  const a = tool.annotations;
  const consequential = a.consequentialHint === true || a.destructiveHint === true;
  const readOnly = a.readOnlyHint === true && !consequential;
  return {
    action: tool.name,
    via: 'webmcp',
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    read_only: readOnly,
    consequential,
    payment: false,
    untrusted_content: a.untrustedContentHint === true,
    requires_approval: !readOnly,
    input_schema: tool.inputSchema,
  };
}

/** A DOM primitive as an action description, judged by Steward's classification of its target. */
function describeDom(action: string, c: DomClassification): AvailableAction {
  return {
    action,
    via: 'legacy_inference',
    ...(c.target ? { target_ref: c.target.ref } : {}),
    read_only: c.read_only,
    consequential: c.consequential,
    payment: c.payment,
    untrusted_content: false,
    requires_approval: c.reasons.length > 0 || !c.read_only,
    input_schema: { type: 'object' },
  };
}

/**
 * Step 5, capability check: which paths offer this action here, choosing the most authoritative
 * one Steward has an executor for, then checking the input against that path's schema (WebMCP
 * tools with @cfworker/json-schema; DOM primitive inputs were checked when the request was parsed).
 */
export function resolveCapability(request: ActionRequest, observed: ObservedState, executors: Executors): CapabilityOutcome {
  const tool = observed.tools?.find((t) => t.name === request.action);
  const candidates: AvailableAction[] = (observed.actions ?? []).filter((a) => describesRequest(a, request));
  if (tool && !candidates.some((c) => c.via === 'webmcp')) candidates.push(describeTool(tool));

  let dom: DomClassification | undefined;
  if (isDomAction(request.action)) {
    dom = classifyDom(request.action, request.input, observed);
    if (dom.problem) return { ok: false, error: makeError('INVALID_INPUT', `Invalid input: ${dom.problem.path}: ${dom.problem.message}`, { issues: [dom.problem] }) };
    if (dom.refusal) return { ok: false, error: makeError(dom.refusal.code, dom.refusal.message) };
    // A key press's risk depends on the key, which no offer knows (Tab is read-only, Enter may
    // submit): Steward's classification of this very press describes it, not the offer's worst case.
    if (INPUT_DEPENDENT.has(request.action)) candidates.splice(0, candidates.length, ...candidates.filter((c) => c.via !== 'legacy_inference'), describeDom(request.action, dom));
    else if (!candidates.some((c) => c.via === 'legacy_inference')) candidates.push(describeDom(request.action, dom));
  }

  const rank = (c: AvailableAction) => AUTHORITY.indexOf(c.via) * 2 + (c.target_ref === undefined ? 1 : 0);
  const runnable = candidates.filter((c) => executors[c.via] !== undefined).sort((a, b) => rank(a) - rank(b));
  const description = runnable[0];
  if (!description) {
    return {
      ok: false,
      error: makeError('TOOL_NOT_FOUND', `${request.action} is not available for ${request.resource.type}:${request.resource.id} here.`),
      available_actions: summarizeActions(observed),
    };
  }
  const onPath = description.via === 'webmcp' ? tool : undefined;
  if (description.via !== 'legacy_inference') {
    if (onPath?.schemaError) return { ok: false, error: refusedSchema(onPath.name, onPath.schemaError) };
    const schema = onPath?.inputSchema ?? description.input_schema;
    const check = validateToolInput(schema, request.input);
    if (!check.valid && 'schemaProblem' in check) return { ok: false, error: refusedSchema(request.action, check.schemaProblem) };
    if (!check.valid) {
      const first = check.issues[0];
      return {
        ok: false,
        error: makeError('INVALID_INPUT', `Invalid input for ${request.action}: ${first ? `${first.path || '(root)'}: ${first.message}` : 'does not match the schema'}`, {
          issues: check.issues.slice(0, 20).map((i) => ({ path: i.path ? `input.${i.path}` : 'input', message: i.message.slice(0, 1024) })),
        }),
      };
    }
  }
  return { ok: true, capability: { description, ...(onPath ? { tool: onPath } : {}), ...(dom ? { dom } : {}) } };
}

/** The page's schema for this action is one Steward will not evaluate (it could freeze the worker, or is malformed). */
function refusedSchema(action: string, problem: string): StewardError {
  const clipped = problem.slice(0, 1024);
  return makeError('INVALID_TOOL_SCHEMA', `The tool ${action} cannot be called: the page declared an input schema Steward refuses to evaluate (${clipped}).`.slice(0, 4096), {
    issues: [{ path: 'input_schema', message: clipped }],
  });
}

/**
 * What an agent may do next, for errors and results: each action name once, with whether it
 * needs approval (for per-element DOM actions: whether any of them does).
 */
export function summarizeActions(observed: ObservedState): ActionSummary[] {
  const out = new Map<string, ActionSummary>();
  const add = (a: AvailableAction) => {
    const requires = a.requires_approval || approvalReasons(a, { untrusted_input: false }).length > 0;
    const prev = out.get(a.action);
    if (!prev) out.set(a.action, { action: a.action, requires_approval: requires, via: a.via });
    else {
      const better = AUTHORITY.indexOf(a.via) < AUTHORITY.indexOf(prev.via ?? 'legacy_inference');
      out.set(a.action, { action: a.action, requires_approval: prev.requires_approval || requires, via: better ? a.via : prev.via! });
    }
  };
  for (const a of observed.actions ?? []) add(a);
  for (const t of observed.tools ?? []) if (!out.has(t.name)) add(describeTool(t));
  for (const name of observed.available_actions) if (!out.has(name)) out.set(name, { action: name, requires_approval: true });
  return [...out.values()];
}
