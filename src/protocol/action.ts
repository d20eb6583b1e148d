import { z } from 'zod';
import { ActionName, IdempotencyKey, isDomAction, type DomActionName } from './action-name.ts';
import { ElementRef } from './element.ts';
import { HumanText, IsoDateTime, NavigableUrl, JsonObject, SnakeCase, UserId, prefixedId } from './primitives.ts';
import { ResourceRef, ResourceScope, Source, StateName, StateVersion } from './resource.ts';
import { describeIssue } from './validate.ts';
import { parseChord } from './key-chord.ts';
import { JsonSchemaObject } from './webmcp.ts';

/** How Steward would run an action: the same four paths that produce state (DESIGN §1). */
const ActionVia = Source;
type ActionVia = z.infer<typeof ActionVia>;

/** An action the agent may request here, with what the policy gateway needs to judge its risk. */
export const AvailableAction = z
  .object({
    action: ActionName,
    via: ActionVia,
    title: z.string().max(256).optional(),
    /** Site- or page-provided text: data, never instructions. */
    description: z.string().max(16_384).optional(),
    /** True when running it changes nothing (WebMCP `readOnlyHint`, a contract's read action). */
    read_only: z.boolean(),
    /** What it would change, as effect types (`order_cancelled`); empty for read-only actions. */
    changes: z.array(SnakeCase).max(64).optional(),
    /** WebMCP `consequentialHint`, a contract flag, or Steward's own classification of a control on a page that declares nothing. */
    consequential: z.boolean(),
    /** Touches money: needs a token with `payment: true` as well as an approval. */
    payment: z.boolean().default(false),
    /** Its output comes from untrusted content (WebMCP `untrustedContentHint`). */
    untrusted_content: z.boolean().default(false),
    requires_approval: z.boolean(),
    input_schema: JsonSchemaObject,
    /** For DOM primitives bound to one element. */
    target_ref: ElementRef.optional(),
  })
  .superRefine((a, ctx) => {
    // DESIGN §5 step 7: only read-only, non-consequential, non-payment actions may skip approval.
    if (!a.requires_approval && (!a.read_only || a.consequential || a.payment)) {
      ctx.addIssue({
        code: 'custom',
        path: ['requires_approval'],
        message: 'must be true for an action that is not read-only, is consequential or touches payment',
      });
    }
    if (a.read_only && a.changes && a.changes.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['changes'], message: 'a read-only action cannot list changes' });
    }
    if (isDomAction(a.action) && a.via !== 'legacy_inference') {
      ctx.addIssue({ code: 'custom', path: ['via'], message: `${a.action} only runs via legacy_inference` });
    }
  });
export type AvailableAction = z.infer<typeof AvailableAction>;
/** What a producer may write (`payment` and `untrusted_content` default to false). */
export type AvailableActionInput = z.input<typeof AvailableAction>;

/** The short form used in results and errors: `{"action": "orders.track", "requires_approval": false}`. */
export const ActionSummary = z.object({
  action: ActionName,
  requires_approval: z.boolean(),
  via: ActionVia.optional(),
  read_only: z.boolean().optional(),
  consequential: z.boolean().optional(),
});
export type ActionSummary = z.infer<typeof ActionSummary>;

/** Results and errors list next actions either by name or as a summary. */
export const ActionListItem = z.union([ActionName, ActionSummary]);
export type ActionListItem = z.infer<typeof ActionListItem>;

// ── DOM primitives: inputs are strict so a typo is an error, not a silently ignored field ──

export const DomClickInput = z.strictObject({ ref: ElementRef });
export const DomTypeInput = z.strictObject({
  ref: ElementRef,
  text: z.string().max(100_000, 'must be at most 100000 characters'),
  /** Replace the current value instead of appending. */
  clear: z.boolean().optional(),
});
export const DomSelectInput = z.strictObject({
  ref: ElementRef,
  values: z.array(z.string().max(4096)).min(1, 'must name at least one option').max(1000),
});
export const DomScrollInput = z
  .strictObject({
    /** Scroll this element into view, or scroll inside it when `direction` is given. */
    ref: ElementRef.optional(),
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    /** In viewport heights/widths. */
    amount: z.number().positive().max(100).optional(),
  })
  .refine((s) => s.ref !== undefined || s.direction !== undefined, {
    message: 'needs a ref to scroll into view or a direction to scroll',
  });
export const NavGotoInput = z.strictObject({ url: NavigableUrl });

/**
 * A key or chord as Playwright writes it: `Enter`, `ArrowDown`, `Escape`, `Tab`, `a`, `Shift+Tab`,
 * `Control+a`. The key is a KeyboardEvent `key` value (a named key or one character); modifiers
 * come first, joined by `+`.
 */
export const KeyChord = z
  .string()
  .min(1)
  .max(64)
  .superRefine((chord, ctx) => {
    const parsed = parseChord(chord);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `${parsed.message}; write a key such as Enter, ArrowDown, Escape, Tab or a, optionally after modifiers: Shift+Tab, Control+a` });
  });
export const DomPressInput = z.strictObject({
  /** The element to press it on (focused first); absent: whatever has the focus now. */
  ref: ElementRef.optional(),
  key: KeyChord,
  /** Press it this many times (ArrowDown ×3). */
  repeat: z.int().min(1).max(50).optional(),
});
export const DomHoverInput = z.strictObject({ ref: ElementRef });
/** Where on a drop target a drag is released: its upper part, lower part or centre. */
export const DropAt = z.enum(['before', 'after', 'center']);
export type DropAt = z.infer<typeof DropAt>;
export const DomDragInput = z
  .strictObject({
    ref: ElementRef,
    /** Drop on this element's centre… */
    to: ElementRef.optional(),
    /** …or on its upper part (`before`: above it in a list), its lower part (`after`) or its centre (the default); only with `to`. */
    at: DropAt.optional(),
    /** …or move by this many CSS pixels from the start (a slider's handle). */
    offset: z.strictObject({ x: z.number().finite().min(-20_000).max(20_000), y: z.number().finite().min(-20_000).max(20_000) }).optional(),
  })
  .refine((d) => (d.to === undefined) !== (d.offset === undefined), { message: 'needs exactly one of to (an element ref) or offset ({x, y} in pixels)' })
  .refine((d) => d.at === undefined || d.to !== undefined, { message: 'at (before, after or center) goes with to: where on the drop target to release' });
export const DomCheckInput = z.strictObject({ ref: ElementRef, checked: z.boolean() });
/** Choosing a file is the person's alone: an agent names the file input, never a file. */
export const DomUploadInput = z.strictObject({ ref: ElementRef });

const DomActionInputs = {
  'dom.click': DomClickInput,
  'dom.type': DomTypeInput,
  'dom.select': DomSelectInput,
  'dom.scroll': DomScrollInput,
  'dom.press': DomPressInput,
  'dom.hover': DomHoverInput,
  'dom.drag': DomDragInput,
  'dom.check': DomCheckInput,
  'dom.upload': DomUploadInput,
  'nav.goto': NavGotoInput,
} as const satisfies Record<DomActionName, z.ZodType>;

// ── ActionRequest (DESIGN §3) ────────────────────────────────────────────────────────────────

/** What the agent believes about the resource; a mismatch gives PRECONDITION_FAILED, not a guess. */
const Preconditions = z.object({ expected_state: StateName.optional(), state_version: StateVersion.optional() }).refine((p) => p.expected_state !== undefined || p.state_version !== undefined, {
  message: 'must give expected_state, state_version or both (omit preconditions entirely otherwise)',
});
type Preconditions = z.infer<typeof Preconditions>;

/** Id of an approval receipt, e.g. `approval_274`. */
export const ReceiptId = prefixedId('approval_', 'approval_274');
export type ReceiptId = z.infer<typeof ReceiptId>;

/**
 * The agent's pointer to an approval receipt. Only `receipt_id` is authoritative: the gateway
 * checks the stored receipt, never the copies of its fields an agent sends along.
 */
const ApprovalReference = z.object({
  receipt_id: ReceiptId,
  approved_by: UserId.optional(),
  scope: ResourceScope.optional(),
  expires_at: IsoDateTime.optional(),
});
type ApprovalReference = z.infer<typeof ApprovalReference>;

export const ActionRequest = z
  .object({
    action: ActionName,
    resource: ResourceRef,
    preconditions: Preconditions.optional(),
    input: JsonObject.default({}),
    idempotency_key: IdempotencyKey,
    approval: ApprovalReference.optional(),
    /** Why the agent wants this (shown on the approval card as the agent's claim, never as fact). */
    rationale: HumanText.optional(),
  })
  .superRefine((req, ctx) => {
    // DOM primitives have fixed inputs: check them here so the executor never sees a bad ref.
    if (!isDomAction(req.action)) return;
    const parsed = DomActionInputs[req.action].safeParse(req.input, { reportInput: true });
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', path: ['input', ...issue.path], message: describeIssue(issue) });
    }
  });
export type ActionRequest = z.infer<typeof ActionRequest>;

/**
 * Whether an observed action describes this request. DOM entries are per element (`target_ref`):
 * only the one for the request's ref, or a generic one, does. An adapter's or a tool's target_ref
 * is the control that performs it, not something the agent names.
 */
export function describesRequest(a: AvailableAction, request: Pick<ActionRequest, 'action' | 'input'>): boolean {
  if (a.action !== request.action) return false;
  const ref = typeof request.input.ref === 'string' ? request.input.ref : undefined;
  return a.via !== 'legacy_inference' || a.target_ref === undefined || a.target_ref === ref;
}
