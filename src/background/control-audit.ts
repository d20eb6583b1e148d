import type { z } from 'zod';
import type { Pipeline } from '../pipeline/pipeline.ts';
import type { PanelAuditEntries } from '../protocol/control-messages.ts';
import { ok, type ControlReply } from './control-reply.ts';

/** `panel/audit`, `panel/audit-verify`, `panel/audit-export`: read-only views of the hash chain. */

export async function auditEntries(pipeline: Pipeline, message: z.infer<typeof PanelAuditEntries>): Promise<ControlReply> {
  const entries = await pipeline.deps.audit.entries();
  return ok({ entries: message.limit !== undefined ? entries.slice(-message.limit) : entries });
}

export async function auditVerify(pipeline: Pipeline): Promise<ControlReply> {
  const v = await pipeline.deps.audit.verify();
  if (v.ok) return ok({ ok: true, entries: v.count });
  const total = (await pipeline.deps.audit.entries()).length;
  return ok({ ok: false, entries: total, broken_at: v.seq, problem: `${v.problem}: ${v.message}`.slice(0, 2000) });
}

export async function auditExport(pipeline: Pipeline): Promise<ControlReply> {
  return ok({ jsonl: await pipeline.deps.audit.exportJsonl() });
}
