import { mcpSessionIn, type McpSession } from '../../protocol/mcp-session.ts';
import type { AuditGroup } from './audit-groups.ts';
import { splitVisits } from './audit-visits.ts';

/**
 * The activity log per task (issue 30.2): a co-pilot run's actions under the run, headed by what
 * the person asked it, and a paired MCP client's per session of the client (one connection: one
 * conversation), headed by its name and when the session started. What a client did outside any
 * recorded session (a 2026-era HTTP client's requests, which have none; entries from before
 * sessions were recorded) is split into visits at quiet gaps (audit-visits.ts), headed by its name
 * and when the visit began; a stretch of only its pairing or token changes, by its name alone.
 * Everything else (the person's own tokens, Steward's entries) stays a row of its own. Pure.
 */

/** A co-pilot run acts as an agent of its own (src/background/copilot/run-manager.ts). */
const RUN_AGENT = /^agent:copilot-(run-[A-Za-z0-9_-]+)$/;
/** A paired MCP client's agent (src/mcp/pairing-book.ts): one per pairing. */
const CLIENT_AGENT = 'agent:mcp-';

export interface AuditTask {
  key: string;
  kind: 'copilot_run' | 'mcp_client';
  agent_id: string;
  /** The person's request to the run, or the client's name as paired; undefined when neither the log nor the panel knows it. */
  title?: string;
  /** The run's id, to name a run whose request is no longer known. */
  run_id?: string;
  /** The client's session these actions belong to, as the audit recorded it. */
  session?: McpSession;
  /** For a client's actions without a session: the visit they were inferred to be, from its first entry (audit-visits.ts). */
  visit?: { started_at: string };
  /** How its latest action ended (`stopped_by_you`, `denied_by_you`, `done_confirmed`, …); undefined before any action. */
  outcome?: string;
  tone: AuditGroup['tone'];
  first_at: string;
  last_at: string;
  last_seq: number;
  /** Its actions, newest first; its token changes folded into one row at the end. */
  groups: AuditGroup[];
  actions: number;
}

export type ActivityRow = { kind: 'task'; task: AuditTask } | { kind: 'entry'; group: AuditGroup };

/** Whether the agent is a co-pilot run or a paired client, and for a run its id. */
function agentTask(agentId: string): { kind: AuditTask['kind']; run_id?: string } | undefined {
  const run = RUN_AGENT.exec(agentId);
  if (run) return { kind: 'copilot_run', run_id: run[1]! };
  if (agentId.startsWith(CLIENT_AGENT)) return { kind: 'mcp_client' };
  return undefined;
}

/** The session an action's first step recorded (a replay from a later session stays with the one that asked first). */
const sessionOf = (g: AuditGroup): McpSession | undefined => (g.steps[0] ? mcpSessionIn(g.steps[0].details) : undefined);

/** Which task a group belongs to: decided over the whole log, so a filter neither moves a group nor changes its task's heading. */
export interface TaskIdentity {
  key: string;
  kind: AuditTask['kind'];
  agent_id: string;
  run_id?: string;
  session?: McpSession;
  visit?: { started_at: string };
}

/**
 * The task of each group that belongs to one, by group key; `groups` is the whole log (groupAudit).
 * A client's session is keyed under the client's own agent id, and so are its visits: the agent id
 * is the token's, so an id another client presents can only ever start a group of its own.
 */
export function taskIdentities(groups: readonly AuditGroup[]): Map<string, TaskIdentity> {
  const identities = new Map<string, TaskIdentity>();
  const withoutSession = new Map<string, AuditGroup[]>();
  for (const g of groups) {
    const task = agentTask(g.agent_id);
    if (task?.kind === 'copilot_run') identities.set(g.key, { key: `run:${g.agent_id}`, agent_id: g.agent_id, ...task });
    if (task?.kind !== 'mcp_client') continue;
    const session = sessionOf(g);
    if (session) {
      identities.set(g.key, { key: `session:${g.agent_id}:${session.id}`, agent_id: g.agent_id, ...task, session });
      continue;
    }
    const mine = withoutSession.get(g.agent_id);
    if (mine) mine.push(g);
    else withoutSession.set(g.agent_id, [g]);
  }
  for (const [agent, mine] of withoutSession)
    for (const visit of splitVisits(mine)) {
      const first = visit[0]!;
      // A stretch of only its pairing or token changes is no visit of the client's: it is headed by the client alone.
      const acted = visit.some((g) => g.action !== undefined);
      const identity: TaskIdentity = acted
        ? { key: `visit:${agent}:${first.key}`, kind: 'mcp_client', agent_id: agent, visit: { started_at: first.first_at } }
        : { key: `client:${agent}:${first.key}`, kind: 'mcp_client', agent_id: agent };
      for (const g of visit) identities.set(g.key, identity);
    }
  return identities;
}

/** The name a client was paired under: its token entries record the label the person saw. */
function pairedName(groups: readonly AuditGroup[]): string | undefined {
  for (const g of groups)
    for (const s of g.steps) {
      const label = s.kind === 'token' ? s.details?.label : undefined;
      if (typeof label === 'string' && label.trim()) return label.trim();
    }
  return undefined;
}

/**
 * What heads each task, per agent: a run's request (`runGoals`, from the co-pilot's runs the panel
 * knows), a client's paired name (from all of the log, so a filter that hides its token entries
 * does not lose it).
 */
export function taskTitles(groups: readonly AuditGroup[], runGoals: ReadonlyMap<string, string>): Map<string, string> {
  const titles = new Map<string, string>();
  const byAgent = new Map<string, AuditGroup[]>();
  for (const g of groups) byAgent.set(g.agent_id, [...(byAgent.get(g.agent_id) ?? []), g]);
  for (const [agent, mine] of byAgent) {
    const task = agentTask(agent);
    const title = task?.kind === 'copilot_run' ? runGoals.get(agent) : task?.kind === 'mcp_client' ? pairedName(mine) : undefined;
    if (title) titles.set(agent, title);
  }
  for (const [agent, goal] of runGoals) if (!titles.has(agent) && agentTask(agent)) titles.set(agent, goal);
  return titles;
}

const isTokenRow = (g: AuditGroup) => !g.action && g.steps.every((s) => s.kind === 'token');

/** A task's token changes (a run's mint and revoke, a client's grants) as one row. */
function foldTokens(groups: readonly AuditGroup[]): AuditGroup[] {
  const tokens = groups.filter(isTokenRow);
  if (tokens.length <= 1) return [...groups.filter((g) => !isTokenRow(g)), ...tokens];
  const steps = tokens.flatMap((g) => g.steps).sort((a, b) => a.seq - b.seq);
  const newest = tokens.reduce((a, b) => (a.last_seq > b.last_seq ? a : b));
  const folded: AuditGroup = { ...newest, key: `tokens:${steps[0]!.seq}`, first_at: steps[0]!.at, steps };
  return [...groups.filter((g) => !isTokenRow(g)), folded];
}

/**
 * Rows in the order of their newest entry: each task where its newest entry is, with its
 * actions inside; `groups` newest first (groupAudit's order), already filtered; `identities` from
 * the whole log (taskIdentities), so what a filter leaves stays in the task it is in unfiltered.
 */
export function activityRows(groups: readonly AuditGroup[], titles: ReadonlyMap<string, string>, identities: ReadonlyMap<string, TaskIdentity> = taskIdentities(groups)): ActivityRow[] {
  const rows: ActivityRow[] = [];
  const tasks = new Map<string, AuditGroup[]>();
  for (const g of groups) {
    const task = identities.get(g.key);
    if (!task) {
      rows.push({ kind: 'entry', group: g });
      continue;
    }
    const mine = tasks.get(task.key);
    if (mine) {
      mine.push(g);
      continue;
    }
    tasks.set(task.key, [g]);
    rows.push({
      kind: 'task',
      task: {
        key: task.key,
        kind: task.kind,
        agent_id: g.agent_id,
        ...(task.run_id ? { run_id: task.run_id } : {}),
        ...(task.session ? { session: task.session } : {}),
        ...(task.visit ? { visit: task.visit } : {}),
        tone: 'neutral',
        first_at: g.first_at,
        last_at: g.last_at,
        last_seq: g.last_seq,
        groups: [],
        actions: 0,
      },
    });
  }
  return rows.map((row) => {
    if (row.kind === 'entry') return row;
    const mine = tasks.get(row.task.key)!;
    const latest = mine.find((g) => g.action);
    const title = titles.get(row.task.agent_id);
    return {
      kind: 'task',
      task: {
        ...row.task,
        ...(title ? { title } : {}),
        ...(latest ? { outcome: latest.outcome, tone: latest.tone } : {}),
        first_at: mine.reduce((at, g) => (g.first_at < at ? g.first_at : at), row.task.first_at),
        groups: foldTokens(mine),
        actions: mine.filter((g) => g.action).length,
      },
    };
  });
}
