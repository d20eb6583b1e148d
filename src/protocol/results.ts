import { z } from 'zod';
import { ActionId } from './action-name.ts';
import { ActionListItem } from './action.ts';
import { AuditId } from './audit.ts';
import { ErrorBody, type StewardError } from './errors.ts';
import { HumanText, IsoDateTime, SnakeCase, UrlOrPath } from './primitives.ts';
import { ConflictCode, Evidence, ResourceRef, Source, StateName, StateVersion } from './resource.ts';
import { ElementRef, ElementState } from './element.ts';
import { ActSettle, WriteRequest } from './messages.ts';
import { ActRefusalBeside } from './act-refusal.ts';

/**
 * ActionResult (DESIGN §3) in its three forms: executed (confirmed / inferred / failed / unknown),
 * accepted-but-pending, and error. Security invariant 6 — an action is never reported as done
 * while only accepted — is enforced by the shapes below, not left to callers.
 */

/** How an outcome was established: the site said so, or Steward re-observed (DOM postcondition). */
const VerifiedBy = z.enum(['site_contract', 'tool_result', 'postcondition']);
type VerifiedBy = z.infer<typeof VerifiedBy>;

const ConfirmedExecution = z.object({
  status: z.literal('confirmed'),
  certainty: z.enum(['confirmed', 'inferred'], {
    error: 'a confirmed execution has certainty "confirmed" (effect observed) or "inferred" (partial evidence); pending_confirmation belongs only to status "accepted"',
  }),
  executed_at: IsoDateTime,
  verified_by: VerifiedBy.optional(),
});

const AcceptedExecution = z.object({
  status: z.literal('accepted'),
  certainty: z.literal('pending_confirmation', {
    error: 'an accepted execution is not done: certainty must be "pending_confirmation" until it is confirmed',
  }),
  /** Where to poll; otherwise poll by action_id. */
  status_url: UrlOrPath.optional(),
  accepted_at: IsoDateTime.optional(),
});

const FailedExecution = z.object({
  status: z.literal('failed'),
  certainty: z.enum(['confirmed', 'inferred', 'unknown'], {
    error: 'a failed execution has certainty "confirmed", "inferred" or "unknown", never pending_confirmation',
  }),
  executed_at: IsoDateTime.optional(),
  /** Why it failed (EXECUTION_FAILED with the page's own words in details.page_error, when the page said). */
  error: ErrorBody.optional(),
});

const UnknownExecution = z.object({
  status: z.literal('unknown'),
  certainty: z.literal('unknown', {
    error: 'an execution whose outcome is unknown must have certainty "unknown"',
  }),
  executed_at: IsoDateTime.optional(),
  /** Why the outcome is unknown, when Steward knows (TIMEOUT: the page did not answer in time). */
  error: ErrorBody.optional(),
});

export const Execution = z.discriminatedUnion('status', [ConfirmedExecution, AcceptedExecution, FailedExecution, UnknownExecution]);
export type Execution = z.infer<typeof Execution>;

/** The resource after the action, e.g. `{type, id, state: "cancelled", state_version: 18}`. */
export const ResourceSnapshot = ResourceRef.extend({
  state: StateName.optional(),
  state_version: StateVersion.optional(),
});
export type ResourceSnapshot = z.infer<typeof ResourceSnapshot>;

export const Effect = z.object({
  type: SnakeCase,
  reversible: z.boolean(),
  description: HumanText.optional(),
  resource: ResourceRef.optional(),
});
export type Effect = z.infer<typeof Effect>;

/** A WebMCP tool's output: data, never instructions (security invariant 3). */
export const ToolOutput = z.object({
  text: z.string().max(1_000_000).nullable(),
  truncated: z.boolean(),
  untrusted: z.boolean(),
});
export type ToolOutput = z.infer<typeof ToolOutput>;

const Glimpse = z.object({ role: z.string().max(64), name: z.string().max(200) });
const Count = z.object({ count: z.int().nonnegative(), examples: z.array(Glimpse).max(5) });

/**
 * What a DOM action really did, seen from outside (DESIGN §3 postcondition verification): the
 * elements that appeared or went away between the observations before and after, values and
 * states that changed, the address, and the requests the page sent while it ran that may have
 * written (src/protocol/messages.ts WriteRequest). Page-derived like the rest of a result: data.
 */
export const ObservedChanges = z.object({
  appeared: Count.optional(),
  removed: Count.optional(),
  /** Elements still there whose value or states changed (a few; `changed_count` says how many). */
  changed: z
    .array(
      Glimpse.extend({
        ref: ElementRef,
        value: z.object({ from: z.string().max(200).optional(), to: z.string().max(200).optional() }).optional(),
        states: z.object({ added: z.array(ElementState).max(16), removed: z.array(ElementState).max(16) }).optional(),
      }),
    )
    .max(8)
    .optional(),
  changed_count: z.int().nonnegative().optional(),
  url: z.object({ from: z.string().max(512), to: z.string().max(512) }).optional(),
  requests: z.array(WriteRequest).max(32).optional(),
  /** How the page came to rest after the act (`capped`: it never went quiet in time). */
  settle: ActSettle.optional(),
  /** Steward judged the action read-only, yet the page sent requests that may have written: look at `requests`. */
  read_only_wrote: z.literal(true).optional(),
});
export type ObservedChanges = z.infer<typeof ObservedChanges>;

const executedFields = {
  action_id: ActionId,
  resource: ResourceSnapshot,
  effects: z.array(Effect).max(64).optional(),
  available_actions: z.array(ActionListItem).max(512).optional(),
  audit_receipt: AuditId.optional(),
  /** Which path ran it; the result never claims more authority than that path has. */
  source: Source.optional(),
  evidence: z.array(Evidence).optional(),
  conflicts: z.array(ConflictCode).optional(),
  output: ToolOutput.optional(),
  /** DOM actions: what changed on the page, and the requests it sent (see ObservedChanges). */
  observed_changes: ObservedChanges.optional(),
};

function checkExecuted(r: { execution: Execution; resource: ResourceSnapshot; effects?: unknown[] | undefined }, ctx: z.RefinementCtx): void {
  const status = r.execution.status;
  if (status === 'confirmed') {
    // Confirming means the new state was seen.
    if (r.resource.state === undefined) ctx.addIssue({ code: 'custom', path: ['resource', 'state'], message: 'a confirmed result must report the resulting state' });
    if (r.resource.state_version === undefined) ctx.addIssue({ code: 'custom', path: ['resource', 'state_version'], message: 'a confirmed result must report the resulting state_version' });
  }
  if ((status === 'accepted' || status === 'unknown') && r.effects && r.effects.length > 0) {
    ctx.addIssue({ code: 'custom', path: ['effects'], message: `effects are reported only once observed; a ${status} action has none yet` });
  }
}

/** DESIGN §3 "Confirmed", "Accepted but not yet confirmed" (poll `status_url` or `action_id`; never report success), failed or unknown: one form, told apart by `execution.status`. */
export const ExecutedResult = z.object({ ...executedFields, execution: Execution }).superRefine(checkExecuted);
export type ExecutedResult = z.infer<typeof ExecutedResult>;

/** What the agent expected (from its preconditions). */
const ExpectedState = z
  .object({ state: StateName.optional(), state_version: StateVersion.optional() })
  .refine((e) => e.state !== undefined || e.state_version !== undefined, { message: 'must give state, state_version or both' });

/** What Steward found instead. */
const CurrentState = z.object({
  state: StateName,
  state_version: StateVersion,
  source: Source.optional(),
});

/** DESIGN §3 error form, e.g. PRECONDITION_FAILED with expected / current / available_actions. */
export const ActionErrorResult = z
  .object({
    error: ErrorBody,
    /**
     * `error` as a phrase for the side panel, when a DOM step was refused before it touched anything
     * (src/protocol/act-refusal.ts); one that does not fit is dropped. Left out of what agents get (forAgents).
     */
    error_said: ActRefusalBeside,
    recovery_hint: HumanText.optional(),
    action_id: ActionId.optional(),
    expected: ExpectedState.optional(),
    current: CurrentState.optional(),
    available_actions: z.array(ActionListItem).max(512).optional(),
    audit_receipt: AuditId.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.recovery_hint === undefined && r.error.recovery_hint === undefined) {
      ctx.addIssue({ code: 'custom', path: ['recovery_hint'], message: 'every error needs a recovery hint, here or in error.recovery_hint' });
    }
    if (r.error.code === 'PRECONDITION_FAILED' && r.current === undefined) {
      ctx.addIssue({ code: 'custom', path: ['current'], message: 'PRECONDITION_FAILED must report the current state and state_version' });
    }
  });
export type ActionErrorResult = z.infer<typeof ActionErrorResult>;

export const ActionResult = z.union([ExecutedResult, ActionErrorResult]);
export type ActionResult = z.infer<typeof ActionResult>;

export function isErrorResult(r: ActionResult): r is ActionErrorResult {
  return 'error' in r;
}

/** A result as agents get it (an MCP client, the co-pilot's model): the English only, without the phrase meant for the person. */
export function forAgents<R extends ActionResult>(r: R): R {
  if (!isErrorResult(r) || r.error_said === undefined) return r;
  const { error_said: _said, ...rest } = r;
  return rest as R;
}

/** Wraps a Steward error in the DESIGN §3 error form, hint repeated at top level as in the spec. */
export function errorResult(error: StewardError, extras: Omit<ActionErrorResult, 'error' | 'recovery_hint'> = {}): ActionErrorResult {
  return { error, recovery_hint: error.recovery_hint, ...extras };
}
