import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/protocol/audit.ts';
import { NO_FILTER, filterGroups, groupAudit } from '../../../src/sidepanel/lib/audit-groups.ts';
import { activityRows, taskTitles, type ActivityRow } from '../../../src/sidepanel/lib/audit-tasks.ts';
import { taskHeading, taskKindWords } from '../../../src/sidepanel/lib/task-heading.ts';
import { clockTime } from '../../../src/sidepanel/lib/time.ts';

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

describe('an MCP client’s actions per session', () => {
  const FIRST = { id: 'mcps_Q2xhdWRlIERlc2t0b3AgMQ', started_at: '2026-12-06T09:00:00.000Z' };
  const SECOND = { id: 'mcps_Q2xhdWRlIERlc2t0b3AgMg', started_at: '2026-12-06T10:00:00.000Z' };
  const CURSOR = 'agent:mcp-cursor-9f9f';

  /** Two sessions of one client, another client naming the first one's id, and entries without a session. */
  function sessions(): AuditEntry[] {
    seq = 0;
    return [
      entry({ kind: 'token', agent_id: CLIENT, outcome: 'minted', token_id: 'tok_c', details: { label: 'Claude Desktop' } }),
      entry({ kind: 'proposal', agent_id: CLIENT, outcome: 'proposed', details: { mcp_session: FIRST }, ...act('first-a', 'orders.list') }),
      entry({ kind: 'confirmation', agent_id: CLIENT, outcome: 'confirmed_confirmed', details: { mcp_session: FIRST }, ...act('first-a', 'orders.list') }),
      entry({ kind: 'proposal', agent_id: CLIENT, outcome: 'proposed', details: { mcp_session: SECOND }, ...act('second-a') }),
      entry({ kind: 'token', agent_id: CURSOR, outcome: 'minted', token_id: 'tok_x', details: { label: 'Cursor' } }),
      entry({ kind: 'denial', agent_id: CURSOR, outcome: 'refused', error_code: 'SCOPE_DENIED', details: { mcp_session: FIRST }, ...act('cursor-a') }),
      entry({ kind: 'denial', agent_id: CLIENT, outcome: 'denied', error_code: 'APPROVAL_DENIED', details: { mcp_session: SECOND }, ...act('second-a') }),
      // From before sessions were recorded, and one whose session does not read as one.
      entry({ kind: 'proposal', agent_id: CLIENT, outcome: 'proposed', ...act('older-a', 'orders.list') }),
      entry({ kind: 'proposal', agent_id: CLIENT, outcome: 'proposed', details: { mcp_session: { id: 'not-a-session' } }, ...act('odd-a', 'orders.list') }),
    ];
  }

  const bySession = (rows: ActivityRow[]) =>
    rows.map((r) =>
      r.kind === 'task'
        ? { task: r.task.title, session: r.task.session?.id, visit: r.task.visit?.started_at, groups: r.task.groups.map((g) => [g.action ?? 'tokens', g.outcome, g.steps.map((s) => s.seq)]) }
        : { entry: r.group.key },
    );

  it('one group per session of a client, under its name; what it did without a session, close in time, one visit; another client naming a session’s id only starts a group of its own', () => {
    const groups = groupAudit(sessions());
    const rows = activityRows(groups, taskTitles(groups, new Map()));
    expect(bySession(rows)).toEqual([
      {
        task: 'Claude Desktop',
        session: undefined,
        // Its pairing and the entries without a (readable) session came seconds apart: one visit, from the pairing on.
        visit: '2026-12-06T10:00:00.000Z',
        groups: [
          ['orders.list', 'in_progress', [8]],
          ['orders.list', 'in_progress', [7]],
          ['tokens', 'minted', [0]],
        ],
      },
      { task: 'Claude Desktop', session: SECOND.id, visit: undefined, groups: [['orders.cancel', 'denied_by_you', [3, 6]]] },
      { task: 'Cursor', session: FIRST.id, visit: undefined, groups: [['orders.cancel', 'refused', [5]]] },
      // Only its pairing: no visit, under its name alone.
      { task: 'Cursor', session: undefined, visit: undefined, groups: [['tokens', 'minted', [4]]] },
      { task: 'Claude Desktop', session: FIRST.id, visit: undefined, groups: [['orders.list', 'done_confirmed', [1, 2]]] },
    ]);
    const first = rows.find((r) => r.kind === 'task' && r.task.agent_id === CLIENT && r.task.session?.id === FIRST.id);
    expect(first?.kind === 'task' && first.task).toMatchObject({ session: FIRST, actions: 1, outcome: 'done_confirmed' });
  });

  it('heads a session with the client’s name and when it started, a visit with its name and when it began (other words, to the minute), its pairing alone with its name', () => {
    const groups = groupAudit(sessions());
    const rows = activityRows(groups, taskTitles(groups, new Map())).flatMap((r) => (r.kind === 'task' ? [r.task] : []));
    const tasks = rows.filter((task) => task.agent_id === CLIENT);
    const now = Date.parse('2026-12-06T12:00:00.000Z');
    const headings = tasks.map((task) => taskHeading(task, now));
    expect(headings).toEqual([
      `Claude Desktop, from ${clockTime('2026-12-06T10:00:00.000Z', now, { seconds: false })}`,
      `Claude Desktop, session started ${clockTime(SECOND.started_at, now)}`,
      `Claude Desktop, session started ${clockTime(FIRST.started_at, now)}`,
    ]);
    expect(new Set(headings).size).toBe(3);
    expect(tasks.map(taskKindWords)).toEqual(['MCP client visit, grouped by time (no session)', 'MCP client session', 'MCP client session']);
    const pairingAlone = rows.find((task) => task.agent_id === CURSOR && !task.session);
    expect(pairingAlone && [taskHeading(pairingAlone, now), taskKindWords(pairingAlone)]).toEqual(['Cursor', 'MCP client']);
    // A client the log has no name for is named by its agent id.
    const unnamed = activityRows(groups, new Map()).find((r) => r.kind === 'task' && r.task.session?.id === SECOND.id);
    expect(unnamed?.kind === 'task' && taskHeading(unnamed.task, now)).toBe(`${CLIENT}, session started ${clockTime(SECOND.started_at, now)}`);
  });
});
