import { z } from 'zod';
import { ActionName, IdempotencyKey } from './action-name.ts';
import { ReceiptId } from './action.ts';
import { ResourceIdentity, StateSummary } from './observed-state.ts';
import { ElementRef } from './element.ts';
import { AgentId, HumanText, InputHash, IsoDateTime, JsonObject, Origin, UserId, isAfter, prefixedId } from './primitives.ts';
import { ResourceRef, ResourceScope, Source, StateVersion, resourceScopeOf } from './resource.ts';
import { TokenId } from './token.ts';
import { Phrase } from './phrase.ts';

/**
 * Approvals (DESIGN §4, §8): the service worker builds the request from the actual action (never
 * from an LLM's summary), only the side panel decides, and a receipt binds that decision to one
 * action, resource, input hash and state_version.
 */

export const ApprovalRequestId = prefixedId('apreq_', 'apreq_51');
type ApprovalRequestId = z.infer<typeof ApprovalRequestId>;

/** Why a person has to decide (DESIGN §5 step 7, issue 4's risk classification). */
export const ApprovalReasonCode = z.enum([
  'not_read_only', // the action changes something
  'consequential', // WebMCP consequentialHint or a contract flag
  'payment', // touches money
  'untrusted_input', // input came from untrusted page or tool content
  'form_submission', // DOM: submits a form
  'risky_control', // DOM: a control named buy / pay / delete / send / cancel / transfer
  'unknown_risk', // could not be classified, so treated as risky
  'inferred_control', // DOM: Steward inferred the element is a control from its behaviour and cannot tell what it does
  'site_requires_approval', // the contract says so
  'confirmation', // DOM: answers the page's own confirmation or consent step, which only the person may give
  'organisation_policy', // the organisation's managed policy requires approval for this action
]);
export type ApprovalReasonCode = z.infer<typeof ApprovalReasonCode>;

/** `detail_said`: the detail as a phrase for the panel (src/protocol/phrase.ts); agents get only the codes. One that does not fit is dropped, and `detail` shown. */
export const ApprovalReason = z.object({ code: ApprovalReasonCode, detail: HumanText.optional(), detail_said: Phrase.optional().catch(undefined) });
export type ApprovalReason = z.infer<typeof ApprovalReason>;

/**
 * The values of the form a click would submit, as observed when the card was made (DESIGN §4: for
 * a form submission the input includes the form's field values). Shown on the card; their hash
 * goes into the receipt, and the click is refused if the form holds anything else by then.
 */
export const BoundFormField = z.object({
  ref: ElementRef,
  name: z.string().max(1024),
  label: z.string().max(1024).optional(),
  type: z.string().min(1).max(32),
  /** Absent: empty, or a secret (password, card number) whose content Steward never reads. */
  value: z.string().max(4096).optional(),
  check: z.enum(['checked', 'mixed']).optional(),
});
export type BoundFormField = z.infer<typeof BoundFormField>;

export const BoundForm = z.object({
  ref: ElementRef,
  name: z.string().max(1024).optional(),
  fields: z.array(BoundFormField).max(1000),
  hash: InputHash,
});
export type BoundForm = z.infer<typeof BoundForm>;

/** Whether "approve for N minutes" is offered on this card, and if not, why (receipt-binding.ts). */
const WindowOffer = z.union([z.object({ offered: z.literal(true) }), z.object({ offered: z.literal(false), why_not: HumanText, why_not_said: Phrase.optional() })]);
type WindowOffer = z.infer<typeof WindowOffer>;

/** What the side panel shows: everything a person needs to decide, nothing an LLM paraphrased. */
export const ApprovalRequest = z
  .object({
    request_id: ApprovalRequestId,
    agent_id: AgentId,
    /** Who asked, in the person's words: the label they gave the agent's token, or the co-pilot's name. */
    agent_name: HumanText.optional(),
    token_id: TokenId,
    origin: Origin,
    action: ActionName,
    via: Source,
    /** A DOM action's element as observed (`button “Cancel order”`): page text, named on the card's first line. */
    target: HumanText.optional(),
    /** `target` as a phrase, so the panel words the role in the person's language. */
    target_said: Phrase.optional(),
    resource: ResourceRef,
    /** How sure Steward is of `resource`: the card says so when it is a guess or unknown. */
    resource_identity: ResourceIdentity.optional(),
    /** The exact input that will be sent. */
    input: JsonObject,
    input_hash: InputHash,
    idempotency_key: IdempotencyKey,
    /** Current state, with evidence / confidence / conflicts, as freshly observed. */
    state: StateSummary,
    reasons: z.array(ApprovalReason).min(1, 'must say why approval is needed').max(16),
    /** The agent's own explanation: shown as its claim, never as fact. */
    rationale: HumanText.optional(),
    /** A click that submits a form: the values it would send. */
    form: BoundForm.optional(),
    /**
     * What the input acts on (a tool's `order_id`, the page's own resource for a DOM control), or
     * `known: false` when the input names none: the card never puts the page's resource in its place.
     */
    acts_on: z.union([z.object({ known: z.literal(true), resource: ResourceRef, basis: HumanText }), z.object({ known: z.literal(false), basis: HumanText })]).optional(),
    /** A form whose values go to another origin than the page's: that origin. */
    sends_to: Origin.optional(),
    /** The agent's step that made the page ask (this card answers its confirmation): shown with this one. */
    prior_step: z.object({ action: ActionName, target: HumanText, target_said: Phrase.optional(), at: IsoDateTime }).optional(),
    /** Absent on cards from older versions: then no window is offered. */
    window: WindowOffer.optional(),
    requested_at: IsoDateTime,
    expires_at: IsoDateTime,
  })
  .refine((r) => isAfter(r.expires_at, r.requested_at), { path: ['expires_at'], message: 'must be after requested_at' })
  // A card is for one site's resource: the one it names is on the site the action meets.
  .refine((r) => r.resource.origin === undefined || r.resource.origin === r.origin, { path: ['resource', 'origin'], message: 'must be the card’s origin' });
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/**
 * A card denied without the person deciding on it: withdrawn by their Stop (the co-pilot run's, or
 * Steward's indicator on the page), which the activity log shows as "Stopped by you", or because
 * the co-pilot run that asked for it ended (its tab closed, an error), which is no one's "no".
 */
export const CardWithdrawal = z.enum(['person_stopped', 'run_ended']);
export type CardWithdrawal = z.infer<typeof CardWithdrawal>;

/**
 * The side panel's answer. An approval echoes the input hash and state_version the card showed,
 * so a decision made on a stale card cannot approve changed input or state.
 */
export const ApprovalDecision = z.discriminatedUnion('decision', [
  z.object({
    request_id: ApprovalRequestId,
    decision: z.literal('approve'),
    decided_by: UserId,
    decided_at: IsoDateTime,
    input_hash: InputHash,
    state_version: StateVersion,
  }),
  z.object({
    request_id: ApprovalRequestId,
    decision: z.literal('deny'),
    decided_by: UserId,
    decided_at: IsoDateTime,
    reason: HumanText.optional(),
    withdrawn: CardWithdrawal.optional(),
  }),
]);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

const ApprovalReceiptBase = z.object({
  receipt_id: ReceiptId,
  request_id: ApprovalRequestId.optional(),
  action: ActionName,
  resource: ResourceRef,
  input_hash: InputHash,
  /** The hash of the submitted form's values (BoundForm.hash), for a click that submits one. */
  form_hash: InputHash.optional(),
  state_version: StateVersion,
  agent_id: AgentId,
  token_id: TokenId,
  approved_by: UserId,
  /** Always exactly the receipt's resource (`order:ORD-1024`), never a wildcard. */
  scope: ResourceScope,
  origin: Origin.optional(),
  issued_at: IsoDateTime,
  expires_at: IsoDateTime,
});

export const ApprovalReceipt = ApprovalReceiptBase.superRefine((r, ctx) => {
  if (!isAfter(r.expires_at, r.issued_at)) {
    ctx.addIssue({ code: 'custom', path: ['expires_at'], message: 'must be after issued_at' });
  }
  const exact = resourceScopeOf(r.resource);
  if (r.scope !== exact) {
    ctx.addIssue({ code: 'custom', path: ['scope'], message: `a receipt covers exactly one resource: must be "${exact}"` });
  }
  if (r.resource.origin !== undefined && r.origin !== undefined && r.resource.origin !== r.origin) {
    ctx.addIssue({ code: 'custom', path: ['resource', 'origin'], message: 'must be the receipt’s origin' });
  }
});
export type ApprovalReceipt = z.infer<typeof ApprovalReceipt>;
