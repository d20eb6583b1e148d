import { pluralOf, t } from '../../base/i18n.ts';
import type { AuditTask } from '../lib/audit-tasks.ts';
import { outcomeText } from '../lib/labels.ts';
import { taskHeading, taskKindWords } from '../lib/task-heading.ts';
import { clockTime } from '../lib/time.ts';
import { now } from '../now.ts';
import { AuditGroupItem } from './AuditGroupItem.tsx';

/** One task in the log: a co-pilot run, an MCP client's session (or the client), how its latest action ended, and its actions inside. */
export function AuditTaskItem({ task }: { task: AuditTask }) {
  const title = taskHeading(task, now.value);
  const id = `task-${task.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const who = taskKindWords(task);
  return (
    <li class="audit-task" aria-labelledby={id}>
      <div class="task-head">
        <h3 id={id}>{title}</h3>
        {task.outcome && <span class={`badge tone-${task.tone}`}>{outcomeText(task.outcome)}</span>}
        <span class="meta">
          {who} · {task.agent_id} · {clockTime(task.last_at, now.value)} ·{' '}
          {pluralOf(task.actions) === 'one' ? t('activity_task_actions_one', task.actions) : t('activity_task_actions_other', task.actions)}
        </span>
      </div>
      <ul class="audit-list" aria-label={t('activity_task_list_label', title)}>
        {task.groups.map((g) => (
          <AuditGroupItem key={g.key} group={g} />
        ))}
      </ul>
    </li>
  );
}
