import type { Pipeline } from '../../pipeline/pipeline.ts';
import { ok, refuseSaying, type Data, type Payload, type Reply } from '../../protocol/channel.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';
import { phrase } from '../../protocol/phrase.ts';
import type { AuditRetentionSetting } from '../pipeline/audit-retention.ts';

/** `panel/audit-retention-set`, `panel/audit-clear`: the person decides how much audit Steward keeps. */

type RetentionReply = Reply<Data<PanelRequests, 'panel/audit-retention-set'>>;

export async function setRetention(pipeline: Pipeline, setting: AuditRetentionSetting, { days }: Payload<PanelRequests, 'panel/audit-retention-set'>): Promise<RetentionReply> {
  await setting.setDays(days);
  if (days === null) return ok({ days, removed: 0, kept_for_export: 0 });
  try {
    return ok({ days, ...(await pipeline.admin.applyAuditRetention(days)) });
  } catch (error) {
    const why = message(error);
    return refuseSaying(phrase('retention_not_applied', { error: why }), 'AUDIT_NOT_REMOVED', `The retention is saved, but nothing was removed now: ${why}`);
  }
}

export async function clearAudit(pipeline: Pipeline): Promise<Reply<Data<PanelRequests, 'panel/audit-clear'>>> {
  try {
    return ok(await pipeline.admin.clearAudit());
  } catch (error) {
    const why = message(error);
    return refuseSaying(phrase('audit_not_cleared', { error: why }), 'AUDIT_NOT_REMOVED', `The activity log was not cleared: ${why}`);
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);
