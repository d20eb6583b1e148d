import { t } from '../../base/i18n.ts';
import type { AuditGroup } from './audit-groups.ts';
import type { AuditTask, TaskIdentity } from './audit-tasks.ts';
import { clockTime } from './time.ts';

/** What names a task: which task it is, and the title the log or the panel knows for its agent. */
type TaskNaming = Pick<AuditTask, 'kind' | 'agent_id' | 'title' | 'run_id' | 'session' | 'visit'>;

/**
 * What heads a task in Activity: the person's request to a co-pilot run, a client's paired name
 * with when the session started for one of its sessions (to the second, so two conversations of a
 * client read apart), with when its visit began for a visit (to the minute, and in other words than
 * a session's: it is inferred from quiet gaps, not recorded), or what it is when neither is known.
 * Pure but for the catalogue.
 */
export function taskHeading(task: TaskNaming, nowMs: number): string {
  if (task.kind === 'copilot_run') return task.title ?? t('activity_task_run_untitled', task.run_id ?? task.agent_id);
  const client = task.title ?? task.agent_id;
  if (task.session) return t('activity_session_title', client, clockTime(task.session.started_at, nowMs));
  return task.visit ? t('activity_visit_title', client, clockTime(task.visit.started_at, nowMs, { seconds: false })) : client;
}

/** What kind of task it is, for the line under its heading. */
export function taskKindWords(task: Pick<AuditTask, 'kind' | 'session' | 'visit'>): string {
  if (task.kind === 'copilot_run') return t('activity_task_copilot_run');
  if (task.session) return t('activity_session_kind');
  return task.visit ? t('activity_visit_kind') : t('activity_task_mcp_client');
}

/**
 * What Activity's search matches of each group's task, by group key: its heading and kind as the
 * person reads them (so a client's name, "session started", or the time shown finds its groups).
 */
export function taskSearchWords(groups: readonly AuditGroup[], identities: ReadonlyMap<string, TaskIdentity>, titles: ReadonlyMap<string, string>, nowMs: number): Map<string, string> {
  const words = new Map<string, string>();
  for (const g of groups) {
    const identity = identities.get(g.key);
    if (!identity) continue;
    const title = titles.get(identity.agent_id);
    const task = { ...identity, ...(title ? { title } : {}) };
    words.set(g.key, `${taskHeading(task, nowMs)} ${taskKindWords(task)}`);
  }
  return words;
}
