import type { z } from 'zod';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import type { PanelAuditEntries, PanelAuditVerifyExport } from '../../protocol/control-messages.ts';
import { ok, type ControlReply } from './reply.ts';

/** `panel/audit`, `panel/audit-verify`, `panel/audit-export`, `panel/audit-verify-export`: read-only views of the hash chain. */

export async function auditEntries(pipeline: Pipeline, message: z.infer<typeof PanelAuditEntries>): Promise<ControlReply> {
  return ok({ entries: await pipeline.admin.auditEntries(message.limit) });
}

export async function auditVerify(pipeline: Pipeline): Promise<ControlReply> {
  return ok(await pipeline.admin.verifyAudit());
}

export async function auditVerifyExport(pipeline: Pipeline, message: z.infer<typeof PanelAuditVerifyExport>): Promise<ControlReply> {
  return ok(await pipeline.admin.verifyAuditExport(message.jsonl));
}

export async function auditExport(pipeline: Pipeline): Promise<ControlReply> {
  return ok({ jsonl: await pipeline.admin.exportAudit() });
}
