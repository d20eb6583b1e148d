import { t } from '../../base/i18n.ts';
import type { AuditTask } from './audit-tasks.ts';
import { clockTime } from './time.ts';

/**
 * What heads a task in Activity: the person's request to a co-pilot run, a client's paired name
 * with when the session started for one of its sessions (to the second, so two conversations of a
 * client read apart), or what it is when neither is known. Pure but for the catalogue.
 */
export function taskHeading(task: AuditTask, nowMs: number): string {
  if (task.kind === 'copilot_run') return task.title ?? t('activity_task_run_untitled', task.run_id ?? task.agent_id);
  const client = task.title ?? task.agent_id;
  return task.session ? t('activity_session_title', client, clockTime(task.session.started_at, nowMs)) : client;
}

/** What kind of task it is, for the line under its heading. */
export function taskKindWords(task: AuditTask): string {
  if (task.kind === 'copilot_run') return t('activity_task_copilot_run');
  return task.session ? t('activity_session_kind') : t('activity_task_mcp_client');
}
