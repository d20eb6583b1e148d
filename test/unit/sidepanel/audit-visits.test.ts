import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/protocol/audit.ts';
import { NO_FILTER, filterGroups, groupAudit, type AuditGroup } from '../../../src/sidepanel/lib/audit-groups.ts';
import { activityRows, taskIdentities, taskTitles, type AuditTask } from '../../../src/sidepanel/lib/audit-tasks.ts';
import { taskHeading, taskKindWords, taskSearchWords } from '../../../src/sidepanel/lib/task-heading.ts';
import { clockTime } from '../../../src/sidepanel/lib/time.ts';

const H = (n: number) => n.toString(16).padStart(64, '0');
let seq = 0;
/** An audit entry written at `at` (UTC, on 6 December 2026), the next in the chain. */
function entry(at: string, fields: Partial<AuditEntry> & Pick<AuditEntry, 'kind' | 'agent_id'>): AuditEntry {
  const s = seq++;
  return { audit_id: `audit_${s}`, seq: s, at: `2026-12-06T${at}.000Z`, prev_hash: H(s), hash: H(s + 1), ...fields };
}

/** A 2026-era client over HTTP: its requests stand alone, so its entries record no session. */
const SHOP = 'agent:mcp-shop-helper-5e5e';
/** A 2025-era client: each of its connections is a session the bridge minted. */
const DESK = 'agent:mcp-claude-desktop-1a2b';
const MORNING = { id: 'mcps_bW9ybmluZyBzZXNzaW9uIG9uZQ', started_at: '2026-12-06T09:00:00.000Z' };

const paired = (at: string, agent: string, label: string) => entry(at, { kind: 'token', agent_id: agent, outcome: 'minted', token_id: `tok_${seq}`, details: { label } });
/** One read of an order: asked and answered at once. */
const track = (at: string, agent: string, key: string, details?: Record<string, unknown>) => [
  entry(at, { kind: 'proposal', agent_id: agent, outcome: 'proposed', idempotency_key: key, action: 'orders.track', resource: { type: 'order', id: 'ORD-1024' }, ...(details ? { details } : {}) }),
  entry(at, { kind: 'confirmation', agent_id: agent, outcome: 'done', idempotency_key: key, action: 'orders.track', resource: { type: 'order', id: 'ORD-1024' }, ...(details ? { details } : {}) }),
];

function tasksOf(entries: AuditEntry[], shown?: (groups: AuditGroup[]) => AuditGroup[]): AuditTask[] {
  const groups = groupAudit(entries);
  const titles = taskTitles(groups, new Map());
  return activityRows(shown ? shown(groups) : groups, titles, taskIdentities(groups)).flatMap((r) => (r.kind === 'task' ? [r.task] : []));
}
const keysOf = (task: AuditTask) => task.groups.flatMap((g) => (g.action ? [g.steps[0]!.idempotency_key] : ['tokens']));

describe('a client without sessions: its actions in visits, split where it was quiet half an hour', () => {
  it('two bursts an hour apart are two visits, newest first, each headed by the client and when it began', () => {
    seq = 0;
    const tasks = tasksOf([
      paired('14:01:50', SHOP, 'Shop Helper'),
      ...track('14:02:11', SHOP, 'a1'),
      ...track('14:09:40', SHOP, 'a2'),
      ...track('15:10:05', SHOP, 'b1'),
      ...track('15:12:00', SHOP, 'b2'),
    ]);
    expect(tasks.map((task) => [task.visit?.started_at, keysOf(task), task.actions])).toEqual([
      ['2026-12-06T15:10:05.000Z', ['b2', 'b1'], 2],
      // The pairing just before the first burst is part of it.
      ['2026-12-06T14:01:50.000Z', ['a2', 'a1', 'tokens'], 2],
    ]);
    const now = Date.parse('2026-12-06T16:00:00.000Z');
    expect(tasks.map((task) => taskHeading(task, now))).toEqual([
      `Shop Helper, from ${clockTime('2026-12-06T15:10:05.000Z', now, { seconds: false })}`,
      `Shop Helper, from ${clockTime('2026-12-06T14:01:50.000Z', now, { seconds: false })}`,
    ]);
    expect(taskHeading(tasks[0]!, now)).not.toContain(':05');
    expect(taskKindWords(tasks[0]!)).toBe('MCP client visit, grouped by time (no session)');
  });

  it('actions within the gap of each other are one visit, however long it runs; the gap counts from where an action ended, not began', () => {
    seq = 0;
    const chained = tasksOf([...track('10:00:00', SHOP, 'a'), ...track('10:29:00', SHOP, 'b'), ...track('10:58:00', SHOP, 'c'), ...track('11:27:00', SHOP, 'd')]);
    expect(chained.map(keysOf)).toEqual([['d', 'c', 'b', 'a']]);
    // An action that waited 50 minutes for the person's approval, then the next one 5 minutes after it ended.
    seq = 0;
    const waited = tasksOf([
      entry('10:00:00', { kind: 'approval_request', agent_id: SHOP, outcome: 'waiting', idempotency_key: 'slow', action: 'orders.cancel' }),
      entry('10:50:00', { kind: 'confirmation', agent_id: SHOP, outcome: 'done', idempotency_key: 'slow', action: 'orders.cancel' }),
      ...track('10:55:00', SHOP, 'next'),
    ]);
    expect(waited.map(keysOf)).toEqual([['next', 'slow']]);
  });

  it('a quiet gap of exactly half an hour still continues the visit; a second more starts a new one', () => {
    seq = 0;
    expect(tasksOf([...track('10:00:00', SHOP, 'a'), ...track('10:30:00', SHOP, 'b')]).map(keysOf)).toEqual([['b', 'a']]);
    seq = 0;
    expect(tasksOf([...track('10:00:00', SHOP, 'a'), ...track('10:30:01', SHOP, 'b')]).map(keysOf)).toEqual([['b'], ['a']]);
  });

  it('a pairing long before the client acts stays under its name alone, not a visit', () => {
    seq = 0;
    const tasks = tasksOf([paired('08:00:00', SHOP, 'Shop Helper'), ...track('14:02:11', SHOP, 'a1')]);
    const now = Date.parse('2026-12-06T16:00:00.000Z');
    expect(tasks.map((task) => [taskHeading(task, now), taskKindWords(task), keysOf(task)])).toEqual([
      [`Shop Helper, from ${clockTime('2026-12-06T14:02:11.000Z', now, { seconds: false })}`, 'MCP client visit, grouped by time (no session)', ['a1']],
      ['Shop Helper', 'MCP client', ['tokens']],
    ]);
  });

  it('a filter never regroups: what it leaves stays in the visit it is in unfiltered, headed the same', () => {
    seq = 0;
    // a and c are more than half an hour apart, but b between them keeps them one visit.
    const entries = [...track('10:00:00', SHOP, 'a'), ...track('10:25:00', SHOP, 'b'), ...track('10:50:00', SHOP, 'c')];
    const withoutB = (groups: AuditGroup[]) => groups.filter((g) => g.steps[0]!.idempotency_key !== 'b');
    expect(tasksOf(entries, withoutB).map((task) => [task.visit?.started_at, keysOf(task)])).toEqual([['2026-12-06T10:00:00.000Z', ['c', 'a']]]);
  });

  it('each client’s visits are its own: another client acting in between neither joins nor splits them', () => {
    seq = 0;
    const other = 'agent:mcp-cursor-9f9f';
    const tasks = tasksOf([...track('10:00:00', SHOP, 'a'), ...track('10:20:00', other, 'x'), ...track('10:45:00', other, 'y'), ...track('10:40:00', SHOP, 'b')]);
    expect(tasks.map((task) => [task.agent_id, keysOf(task)])).toEqual([
      [SHOP, ['b']],
      [other, ['y', 'x']],
      [SHOP, ['a']],
    ]);
  });

  it('a 2025-era client’s sessions are unchanged: one group per session however long it is quiet, its pairing under its name', () => {
    seq = 0;
    const tasks = tasksOf([paired('08:59:00', DESK, 'Claude Desktop'), ...track('09:00:05', DESK, 's1', { mcp_session: MORNING }), ...track('11:30:00', DESK, 's2', { mcp_session: MORNING })]);
    expect(tasks.map((task) => [task.session?.id, task.visit, keysOf(task)])).toEqual([
      [MORNING.id, undefined, ['s2', 's1']],
      [undefined, undefined, ['tokens']],
    ]);
    const now = Date.parse('2026-12-06T12:00:00.000Z');
    expect(tasks.map((task) => taskHeading(task, now))).toEqual([`Claude Desktop, session started ${clockTime(MORNING.started_at, now)}`, 'Claude Desktop']);
  });
});

describe('Activity’s search finds a group by its task’s heading', () => {
  /** A 2026-era client's visit, a 2025-era client's session, and the person's own token. */
  function log(): AuditEntry[] {
    seq = 0;
    return [
      paired('08:59:00', DESK, 'Claude Desktop'),
      ...track('09:00:05', DESK, 'desk-1', { mcp_session: MORNING }),
      paired('14:01:50', SHOP, 'Shop Helper'),
      ...track('14:02:11', SHOP, 'shop-1'),
      ...track('14:05:00', SHOP, 'shop-2'),
      entry('14:06:00', { kind: 'token', agent_id: 'agent:copilot', outcome: 'minted', token_id: 'tok_own' }),
    ];
  }
  const now = Date.parse('2026-12-06T16:00:00.000Z');
  const search = (text: string) => {
    const groups = groupAudit(log());
    const words = taskSearchWords(groups, taskIdentities(groups), taskTitles(groups, new Map()), now);
    return filterGroups(groups, { ...NO_FILTER, text }, words).map((g) => g.steps[0]!.idempotency_key ?? g.steps[0]!.token_id);
  };

  it('a client’s name finds all its groups, its pairing among them, and no one else’s', () => {
    expect(search('shop helper')).toEqual(['shop-2', 'shop-1', 'tok_3']);
    expect(search('Claude')).toEqual(['desk-1', 'tok_0']);
  });

  it('the heading’s own words and its time as shown find a session or a visit', () => {
    expect(search('session started')).toEqual(['desk-1']);
    expect(search(clockTime(MORNING.started_at, now))).toEqual(['desk-1']);
    // The visit holds the pairing that began it.
    expect(search(`shop from ${clockTime('2026-12-06T14:01:50.000Z', now, { seconds: false })}`)).toEqual(['shop-2', 'shop-1', 'tok_3']);
    expect(search('no session')).toEqual(['shop-2', 'shop-1', 'tok_3']);
    // Words of no heading find nothing.
    expect(search('Shop Helper, session started')).toEqual([]);
  });
});
