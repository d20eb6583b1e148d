/** The Agent Action API's refusals: DESIGN §3's error form with the HTTP status of its code. */
import { makeError, type ErrorCode, type ErrorIssue } from '../../../src/protocol/errors.ts';
import type { AuthRefusalReason, SiteErrorBody } from '../../../src/protocol/agent-contract.ts';

const STATUS_OF: Partial<Record<ErrorCode, number>> = {
  INVALID_INPUT: 400,
  TOKEN_INVALID: 401,
  SCOPE_DENIED: 403,
  APPROVAL_REQUIRED: 403,
  TOOL_NOT_FOUND: 404,
  IN_PROGRESS: 409,
  PRECONDITION_FAILED: 412,
  IDEMPOTENCY_CONFLICT: 422,
  EXECUTION_FAILED: 500,
};

/** Thrown by any check; the routes turn it into the response. */
export class SiteRefusal extends Error {
  readonly status: number;
  readonly body: SiteErrorBody;
  constructor(code: ErrorCode, message: string, extra: { status?: number; issues?: ErrorIssue[]; details?: Record<string, unknown> } & Omit<SiteErrorBody, 'error'> = {}) {
    super(message);
    const { status, issues, details, ...rest } = extra;
    this.status = status ?? STATUS_OF[code] ?? 400;
    this.body = {
      // The site's own rule for retrying (only a request still running); the code's recovery hint.
      error: makeError(code, message, { retryable: code === 'IN_PROGRESS', ...(issues ? { issues } : {}), ...(details ? { details } : {}) }),
      ...rest,
    };
  }
}

/** 401 TOKEN_INVALID with the reason the person or agent can act on. */
export function authRefusal(reason: AuthRefusalReason, message: string): SiteRefusal {
  return new SiteRefusal('TOKEN_INVALID', message, { details: { reason } });
}
