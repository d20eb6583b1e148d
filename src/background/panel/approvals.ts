import type { Pipeline } from '../../pipeline/pipeline.ts';
import type { DecideResult } from '../../pipeline/approvals.ts';
import { ok, refuse, type Data, type Payload, type Reply } from '../../protocol/channel.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';

/** `panel/approvals` and `panel/approval-decide`: the only way anything gets approved. */

const PROBLEM_CODES: Record<Extract<DecideResult, { ok: false }>['problem'], string> = {
  unknown_request: 'APPROVAL_NOT_FOUND',
  already_decided: 'APPROVAL_ALREADY_DECIDED',
  expired: 'APPROVAL_EXPIRED',
  stale_card: 'APPROVAL_STALE',
  window_not_allowed: 'WINDOW_NOT_ALLOWED',
  invalid_decision: 'INVALID_MESSAGE',
};

export async function listApprovals(pipeline: Pipeline): Promise<Reply<Data<PanelRequests, 'panel/approvals'>>> {
  return ok({ pending: await pipeline.admin.pendingApprovals() });
}

export async function decideApproval(pipeline: Pipeline, message: Payload<PanelRequests, 'panel/approval-decide'>): Promise<Reply<Data<PanelRequests, 'panel/approval-decide'>>> {
  const result = await pipeline.admin.decide(message.decision, message.window_ms !== undefined ? { window_ms: message.window_ms } : {});
  if (!result.ok) return refuse(PROBLEM_CODES[result.problem], result.message);
  return ok(result.status === 'approved' ? { status: 'approved', receipt: result.receipt } : { status: 'denied' });
}
