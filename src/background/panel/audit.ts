import type { z } from 'zod';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import type { PanelAuditEntries, PanelAuditVerifyExport } from '../../protocol/control-messages.ts';
import type { ChainVerification } from '../../storage/audit-chain.ts';
import { ok, type ControlReply } from './reply.ts';

/** `panel/audit`, `panel/audit-verify`, `panel/audit-export`, `panel/audit-verify-export`: read-only views of the hash chain. */

export async function auditEntries(pipeline: Pipeline, message: z.infer<typeof PanelAuditEntries>): Promise<ControlReply> {
  const entries = await pipeline.deps.audit.entries();
  return ok({ entries: message.limit !== undefined ? entries.slice(-message.limit) : entries });
}

export async function auditVerify(pipeline: Pipeline): Promise<ControlReply> {
  const v = await pipeline.deps.audit.verify();
  return verdict(v, v.ok ? v.count : (await pipeline.deps.audit.entries()).length);
}

export async function auditVerifyExport(pipeline: Pipeline, message: z.infer<typeof PanelAuditVerifyExport>): Promise<ControlReply> {
  const v = await pipeline.deps.audit.verifyExport(message.jsonl);
  // Every line but the signed head is an entry.
  const lines = message.jsonl.split('\n').filter((l) => l.trim() !== '').length;
  return verdict(v, v.ok ? v.count : Math.max(0, lines - 1));
}

function verdict(v: ChainVerification, entries: number): ControlReply {
  if (v.ok) return ok({ ok: true, entries });
  return ok({ ok: false, entries, broken_at: v.seq, problem: `${v.problem}: ${v.message}`.slice(0, 2000) });
}

export async function auditExport(pipeline: Pipeline): Promise<ControlReply> {
  return ok({ jsonl: await pipeline.deps.audit.exportJsonl() });
}
