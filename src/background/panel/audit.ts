import type { Pipeline } from '../../pipeline/pipeline.ts';
import { ok, type Data, type Payload, type Reply } from '../../protocol/channel.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';
type Verdict = Reply<Data<PanelRequests, 'panel/audit-verify'>>;

/** `panel/audit`, `panel/audit-verify`, `panel/audit-export`, `panel/audit-verify-export`: read-only views of the hash chain. */

export async function auditEntries(pipeline: Pipeline, message: Payload<PanelRequests, 'panel/audit'>): Promise<Reply<Data<PanelRequests, 'panel/audit'>>> {
  return ok({ entries: await pipeline.admin.auditEntries(message.limit) });
}

export async function auditVerify(pipeline: Pipeline): Promise<Verdict> {
  return ok(await pipeline.admin.verifyAudit());
}

export async function auditVerifyExport(pipeline: Pipeline, message: Payload<PanelRequests, 'panel/audit-verify-export'>): Promise<Verdict> {
  return ok(await pipeline.admin.verifyAuditExport(message.jsonl));
}

export async function auditExport(pipeline: Pipeline): Promise<Reply<Data<PanelRequests, 'panel/audit-export'>>> {
  return ok({ jsonl: await pipeline.admin.exportAudit() });
}
