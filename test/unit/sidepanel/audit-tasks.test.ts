import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/protocol/audit.ts';
import { NO_FILTER, filterGroups, groupAudit } from '../../../src/sidepanel/lib/audit-groups.ts';
import { activityRows, taskTitles, type ActivityRow } from '../../../src/sidepanel/lib/audit-tasks.ts';

const H = (n: number) => n.toString(16).padStart(64, '0');
let seq = 0;
function entry(fields: Partial<AuditEntry> & Pick<AuditEntry, 'kind' | 'agent_id'>): AuditEntry {
  const s = seq++;
  return { audit_id: `audit_${s}`, seq: s, at: new Date(Date.UTC(2026, 11, 6, 10, 0, s)).toISOString(), prev_hash: H(s), hash: H(s + 1), ...fields };
}

const RUN = 'agent:copilot-run-0123456789abcdef';
const CLIENT = 'agent:mcp-claude-desktop-1a2b';
const act = (key: string, action = 'orders.cancel') => ({ idempotency_key: key, action, resource: { type: 'order', id: 'ORD-1024' } });

/** A co-pilot run the person stopped at its card, a paired client with two actions, and the person's own token between them. */
function log(): AuditEntry[] {
  seq = 0;
  return [
    entry({ kind: 'token', agent_id: CLIENT, outcome: 'minted', token_id: 'tok_c', details: { label: 'Claude Desktop' } }),
    entry({ kind: 'proposal', agent_id: CLIENT, outcome: 'proposed', ...act('c1', 'orders.list') }),
    entry({ kind: 'confirmation', agent_id: CLIENT, outcome: 'confirmed_confirmed', ...act('c1', 'orders.list') }),
    entry({ kind: 'token', agent_id: RUN, outcome: 'minted', token_id: 'tok_r' }),
    entry({ kind: 'proposal', agent_id: RUN, outcome: 'proposed', ...act(`${RUN.slice(14)}.step-1`) }),
    entry({ kind: 'token', agent_id: 'agent:copilot', outcome: 'minted', token_id: 'tok_p' }),
    entry({ kind: 'denial', agent_id: CLIENT, outcome: 'denied', error_code: 'APPROVAL_DENIED', ...act('c2') }),
    entry({ kind: 'denial', agent_id: RUN, outcome: 'stopped', error_code: 'APPROVAL_DENIED', details: { stopped_by: 'user:local' }, ...act(`${RUN.slice(14)}.step-1`) }),
    entry({ kind: 'token', agent_id: RUN, outcome: 'revoked', token_id: 'tok_r' }),
  ];
}

const shape = (rows: ActivityRow[]) =>
  rows.map((r) =>
    r.kind === 'task'
      ? { task: r.task.title ?? r.task.run_id, outcome: r.task.outcome, groups: r.task.groups.map((g) => [g.action ?? 'tokens', g.outcome, g.steps.map((s) => s.seq)]) }
      : { entry: r.group.steps.map((s) => s.seq) },
  );

describe('the activity log per task', () => {
  const groups = groupAudit(log());
  const goals = new Map([[RUN, 'cancel order ORD-1024']]);

  it('puts a co-pilot run’s actions under the person’s request, an MCP client’s under its name, newest task first; the rest stays a row of its own', () => {
    const titles = taskTitles(groups, goals);
    expect(shape(activityRows(groups, titles))).toEqual([
      // The run: its stopped action, then its token's mint and revoke folded into one row.
      {
        task: 'cancel order ORD-1024',
        outcome: 'stopped_by_you',
        groups: [
          ['orders.cancel', 'stopped_by_you', [4, 7]],
          ['tokens', 'revoked', [3, 8]],
        ],
      },
      {
        task: 'Claude Desktop',
        outcome: 'denied_by_you',
        groups: [
          ['orders.cancel', 'denied_by_you', [6]],
          ['orders.list', 'done_confirmed', [1, 2]],
          ['tokens', 'minted', [0]],
        ],
      },
      { entry: [5] },
    ]);
  });

  it('names a run whose request the panel no longer knows by its id, and counts only actions', () => {
    const rows = activityRows(groups, taskTitles(groups, new Map()));
    const run = rows.find((r) => r.kind === 'task' && r.task.kind === 'copilot_run');
    expect(run).toMatchObject({ task: { run_id: 'run-0123456789abcdef', actions: 1, tone: 'neutral' } });
    expect(run?.kind === 'task' && run.task).not.toHaveProperty('title');
  });

  it('finds a run by what the person asked it, and keeps a client’s name when a filter hides its token entries', () => {
    const titles = taskTitles(groups, goals);
    expect(shape(activityRows(filterGroups(groups, { ...NO_FILTER, text: 'ORD-1024 cancel order' }, titles), titles)).map((r) => ('task' in r ? r.task : r))).toEqual([
      'cancel order ORD-1024',
      'Claude Desktop',
    ]);
    const denied = filterGroups(groups, { ...NO_FILTER, outcome: 'denied_by_you' }, titles);
    expect(shape(activityRows(denied, titles))).toEqual([{ task: 'Claude Desktop', outcome: 'denied_by_you', groups: [['orders.cancel', 'denied_by_you', [6]]] }]);
  });
});
