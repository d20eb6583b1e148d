import type { Pipeline } from '../../pipeline/pipeline.ts';
import { ok, type Data, type Payload, type Reply } from '../../protocol/channel.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';
import type { ChainVerification } from '../../storage/audit-chain.ts';
type Verdict = Reply<Data<PanelRequests, 'panel/audit-verify'>>;

/** `panel/audit`, `panel/audit-verify`, `panel/audit-export`, `panel/audit-verify-export`: read-only views of the hash chain. */

export async function auditEntries(pipeline: Pipeline, message: Payload<PanelRequests, 'panel/audit'>): Promise<Reply<Data<PanelRequests, 'panel/audit'>>> {
  const entries = await pipeline.deps.audit.entries();
  return ok({ entries: message.limit !== undefined ? entries.slice(-message.limit) : entries });
}

export async function auditVerify(pipeline: Pipeline): Promise<Verdict> {
  const v = await pipeline.deps.audit.verify();
  return verdict(v, v.ok ? v.count : (await pipeline.deps.audit.entries()).length);
}

export async function auditVerifyExport(pipeline: Pipeline, message: Payload<PanelRequests, 'panel/audit-verify-export'>): Promise<Verdict> {
  const v = await pipeline.deps.audit.verifyExport(message.jsonl);
  // Every line but the signed head is an entry.
  const lines = message.jsonl.split('\n').filter((l) => l.trim() !== '').length;
  return verdict(v, v.ok ? v.count : Math.max(0, lines - 1));
}

function verdict(v: ChainVerification, entries: number): Verdict {
  if (v.ok) return ok({ ok: true, entries });
  return ok({ ok: false, entries, broken_at: v.seq, problem: `${v.problem}: ${v.message}`.slice(0, 2000) });
}

export async function auditExport(pipeline: Pipeline): Promise<Reply<Data<PanelRequests, 'panel/audit-export'>>> {
  return ok({ jsonl: await pipeline.deps.audit.exportJsonl() });
}
