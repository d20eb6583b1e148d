import { z } from 'zod';
import { HumanText } from './primitives.ts';

/** Every error Steward or a contract site reports (DESIGN §3), plus Steward's own message checks. */
export const ErrorCode = z.enum([
  'PRECONDITION_FAILED',
  'APPROVAL_REQUIRED',
  'APPROVAL_DENIED',
  'TOKEN_INVALID',
  'SCOPE_DENIED',
  'QUOTA_EXCEEDED',
  'IDEMPOTENCY_CONFLICT',
  'IN_PROGRESS',
  'TOOL_NOT_FOUND',
  'INVALID_INPUT',
  'EXECUTION_FAILED',
  'INVALID_MESSAGE',
  'FORBIDDEN_SENDER',
  'INVALID_TOOL_SCHEMA',
  'AUDIT_UNAVAILABLE',
  'TIMEOUT',
  'FILE_CHOICE_REQUIRED',
  'AMBIGUOUS_RESOURCE',
  'SITE_NOT_ALLOWED',
  'POLICY_DENIED',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** One schema violation, with a human-readable path such as `preconditions.state_version`. */
export const ErrorIssue = z.object({
  path: z.string().max(1024),
  message: z.string().max(4096),
});
export type ErrorIssue = z.infer<typeof ErrorIssue>;

/**
 * An error as it appears on the wire (the `error` object of DESIGN §3). `recovery_hint` may sit
 * here or beside it in the result, as in the spec's PRECONDITION_FAILED example.
 */
export const ErrorBody = z.object({
  code: ErrorCode,
  message: HumanText,
  retryable: z.boolean({ error: 'must say whether retrying can succeed: true or false' }),
  recovery_hint: HumanText.optional(),
  /** INVALID_INPUT / INVALID_MESSAGE: what exactly was wrong. */
  issues: z.array(ErrorIssue).max(100).optional(),
  /** QUOTA_EXCEEDED / IN_PROGRESS: when a retry may succeed. */
  retry_after_ms: z.int().nonnegative().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** An error Steward produces itself: always with its recovery hint. */
export const StewardError = ErrorBody.extend({ recovery_hint: HumanText });
export type StewardError = z.infer<typeof StewardError>;

/**
 * Defaults per code. `retryable` means "the same request, sent again unchanged, may succeed";
 * anything that needs a new state, approval, token or input is not retryable.
 */
const ERROR_DEFAULTS: Readonly<Record<ErrorCode, { retryable: boolean; recovery_hint: string }>> = {
  PRECONDITION_FAILED: {
    retryable: false,
    recovery_hint: 'Refresh the resource state and re-plan using an available action.',
  },
  APPROVAL_REQUIRED: {
    retryable: false,
    recovery_hint: "Wait for the user's decision in Steward's side panel, then resubmit with the approval receipt.",
  },
  APPROVAL_DENIED: {
    retryable: false,
    recovery_hint: 'The user declined this action; do not resubmit it. Ask the user how to proceed.',
  },
  TOKEN_INVALID: {
    retryable: false,
    recovery_hint: 'The agent token is missing, expired or revoked; ask the user to grant a new one.',
  },
  SCOPE_DENIED: {
    retryable: false,
    recovery_hint: "The action, resource or origin is outside the token's scope; request a token that covers it.",
  },
  QUOTA_EXCEEDED: {
    retryable: true,
    recovery_hint: 'Wait until retry_after_ms has passed, then retry with the same idempotency key.',
  },
  IDEMPOTENCY_CONFLICT: {
    retryable: false,
    recovery_hint: 'This idempotency key was used with different input; use a new key for a new request.',
  },
  IN_PROGRESS: {
    retryable: true,
    recovery_hint: 'The first request with this key is still running; poll its status or retry later with the same key.',
  },
  TOOL_NOT_FOUND: {
    retryable: false,
    recovery_hint: 'Re-observe the page and choose one of the tools or actions it offers now.',
  },
  INVALID_INPUT: {
    retryable: false,
    recovery_hint: "Fix the input according to the listed issues and the action's input schema, then resubmit.",
  },
  EXECUTION_FAILED: {
    retryable: false,
    recovery_hint: 'Re-observe the resource before doing anything else: the action may or may not have taken effect.',
  },
  INVALID_MESSAGE: {
    retryable: false,
    recovery_hint: 'The message does not match the protocol schema; fix the listed issues.',
  },
  FORBIDDEN_SENDER: {
    retryable: false,
    recovery_hint: 'This context is not allowed to send this message; nothing was done.',
  },
  INVALID_TOOL_SCHEMA: {
    retryable: false,
    recovery_hint: "The page's tool declares a schema Steward refuses to evaluate; use another tool or action.",
  },
  AUDIT_UNAVAILABLE: {
    retryable: true,
    recovery_hint: 'Steward could not write its audit log, so nothing was dispatched; retry later with the same idempotency key.',
  },
  TIMEOUT: {
    retryable: false,
    recovery_hint: 'The page did not answer in time; re-observe the resource before doing anything else: the action may or may not have taken effect.',
  },
  FILE_CHOICE_REQUIRED: {
    retryable: false,
    recovery_hint: 'Ask the person to choose the file in that field on the page themselves; Steward never chooses a file for an agent. Nothing was changed.',
  },
  AMBIGUOUS_RESOURCE: {
    retryable: false,
    recovery_hint: 'More than one site has a resource with this type and id: resubmit with resource.origin set to one of details.candidates (or work in a tab on that site). Nothing was sent.',
  },
  SITE_NOT_ALLOWED: {
    retryable: false,
    recovery_hint: "The navigation would have left the agent's allowed sites and was stopped before any request reached the other origin; stay on the allowed sites or ask the person.",
  },
  POLICY_DENIED: {
    retryable: false,
    recovery_hint: "The organisation's policy for this browser refuses this (details.policy names the rule); no approval can lift it. Do not resubmit; tell the person.",
  },
};

/** Optional fields `makeError` accepts; `retryable` and `recovery_hint` override the code's defaults. */
export type ErrorExtras = Partial<Omit<StewardError, 'code' | 'message'>>;

/** Builds a complete Steward error with the code's default retryability and recovery hint. */
export function makeError(code: ErrorCode, message: string, extras: ErrorExtras = {}): StewardError {
  const defaults = ERROR_DEFAULTS[code];
  const error: StewardError = {
    code,
    message,
    retryable: extras.retryable ?? defaults.retryable,
    recovery_hint: extras.recovery_hint ?? defaults.recovery_hint,
  };
  if (extras.issues !== undefined) error.issues = extras.issues;
  if (extras.retry_after_ms !== undefined) error.retry_after_ms = extras.retry_after_ms;
  if (extras.details !== undefined) error.details = extras.details;
  return error;
}
