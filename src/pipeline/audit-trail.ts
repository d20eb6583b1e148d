import type { AuditEntry, AuditKind } from '../protocol/audit.ts';
import type { ErrorCode } from '../protocol/errors.ts';
import type { ResourceRef, StateVersion } from '../protocol/resource.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { StoredAction } from '../storage/action-record.ts';
import { withMcpSession } from '../protocol/mcp-session.ts';

export interface StepFields {
  outcome?: string;
  receipt_id?: string;
  state_version_before?: StateVersion;
  state_version_after?: StateVersion;
  error_code?: ErrorCode;
  details?: Record<string, unknown>;
}

/**
 * One action's steps in the audit log, each with agent, token, key, action, resource and input
 * hash, and the MCP client session that asked for it, if one did (in `details`). Intermediate steps are queued without waiting (the log serialises them); `record` awaits
 * the trail so far and fails if any step of it was not written (the dispatch entry: no record,
 * no dispatch); `finish` awaits the last one, so every step is written before the result is returned.
 */
export class AuditTrail {
  private last: Promise<AuditEntry | undefined> = Promise.resolve(undefined);
  private receiptId: string | undefined;
  /** The first append of this trail that failed. */
  private failure: unknown;
  /** The resource as asked for, then (once reached) with the site it is on. */
  private resource: ResourceRef;

  constructor(
    private readonly log: AuditLog,
    private readonly action: Pick<StoredAction, 'agent_id' | 'token_id' | 'idempotency_key' | 'input_hash' | 'receipt_id'> & {
      request: Pick<StoredAction['request'], 'action' | 'resource'>;
      context?: Pick<StoredAction['context'], 'mcp_session'>;
    },
  ) {
    this.resource = action.request.resource;
  }

  /** From here on, every step names the resource with its site (origin, type, id). */
  atSite(resource: ResourceRef): void {
    this.resource = resource;
  }

  /** From the approval on, every step carries the receipt that authorised the action. */
  useReceipt(receiptId: string): void {
    this.receiptId = receiptId;
  }

  step(kind: AuditKind, fields: StepFields = {}): void {
    const a = this.action;
    const receipt = fields.receipt_id ?? this.receiptId ?? a.receipt_id;
    const details = withMcpSession(fields.details, a.context?.mcp_session);
    this.last = this.log
      .append({
        kind,
        agent_id: a.agent_id,
        token_id: a.token_id,
        idempotency_key: a.idempotency_key,
        action: a.request.action,
        resource: this.resource,
        input_hash: a.input_hash,
        ...(receipt ? { receipt_id: receipt } : {}),
        ...(fields.state_version_before !== undefined ? { state_version_before: fields.state_version_before } : {}),
        ...(fields.state_version_after !== undefined ? { state_version_after: fields.state_version_after } : {}),
        ...(fields.outcome ? { outcome: fields.outcome } : {}),
        ...(fields.error_code ? { error_code: fields.error_code } : {}),
        ...(details ? { details } : {}),
      })
      .catch((error: unknown) => {
        console.error('audit append failed', error);
        this.failure ??= error;
        return undefined;
      });
  }

  /** Appends a step and waits until it and every earlier step are written; rejects if any was not. */
  async record(kind: AuditKind, fields: StepFields = {}): Promise<AuditEntry> {
    this.step(kind, fields);
    const entry = await this.last;
    if (this.failure !== undefined || !entry) throw this.failure ?? new Error('audit entry not written');
    return entry;
  }

  /** Appends the final step and waits for the whole trail; returns the final entry's id. */
  async finish(kind: AuditKind, fields: StepFields = {}): Promise<string | undefined> {
    this.step(kind, fields);
    return (await this.last)?.audit_id;
  }
}
