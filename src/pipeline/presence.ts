import type { JournalState } from '../protocol/journal.ts';
import type { PresencePhase, PresentAgent, TabPresence } from '../protocol/presence.ts';
import { ElementRef } from '../protocol/element.ts';

/**
 * Which agents act on which tab (issue 30.4), derived only from records that survive a worker
 * restart: the journal's unfinished actions (their session's tab) and the co-pilot's run records.
 * Pure: the worker's adapter (src/background/presence/) reads the records and draws the result.
 */

/** An unfinished action of the journal, with the tab its session works in and its token's label. */
export interface ActionOnTab {
  agent_id: string;
  state: JournalState;
  /** The tab of the action's session (undefined: none, or the tab is gone). */
  tabId: number | undefined;
  /** The token's label: an MCP client's paired name. */
  label?: string;
  input: Record<string, unknown>;
}

/** A co-pilot run as its record says. */
export interface RunOnTab {
  agent_id: string;
  tabId: number;
  status: 'running' | 'paused' | 'awaiting_approval' | 'awaiting_answer' | 'finished' | 'stopped';
}

const COPILOT_NAME = 'Steward co-pilot';
const COPILOT_PREFIX = 'agent:copilot-';

/** Journal states in which an agent is acting (or waiting for the person) on the page; later ones are the site's. */
const PHASE_OF: Partial<Record<JournalState, PresencePhase>> = {
  proposed: 'acting',
  approved: 'acting',
  dispatched: 'acting',
  awaiting_approval: 'awaiting_approval',
};

export const isCopilot = (agentId: string) => agentId.startsWith(COPILOT_PREFIX);

/** An agent as the person knows it: the co-pilot by name, an MCP client by its paired label, else its id. */
export function agentName(agentId: string, label: string | undefined): string {
  if (isCopilot(agentId)) return COPILOT_NAME;
  const shown = (label ?? '').trim().slice(0, 120);
  return shown || agentId.slice(0, 120);
}

/** The element an action names by ref (DOM steps), when it is one a page can hold. */
function refOf(input: Record<string, unknown>): string | undefined {
  const ref = ElementRef.safeParse(input.ref);
  return ref.success ? ref.data : undefined;
}

/** Per tab: the agents acting there, waiting for the person first, and the element being acted on. */
export function presenceByTab(actions: readonly ActionOnTab[], runs: readonly RunOnTab[]): Map<number, TabPresence> {
  const tabs = new Map<number, { agents: Map<string, PresentAgent>; target?: string }>();
  const at = (tabId: number) => {
    let tab = tabs.get(tabId);
    if (!tab) tabs.set(tabId, (tab = { agents: new Map() }));
    return tab;
  };
  const note = (tabId: number, agent: PresentAgent) => {
    const agents = at(tabId).agents;
    const known = agents.get(agent.agent_id);
    // Waiting for the person says more than acting: it is what the person can answer.
    if (!known || (known.phase === 'acting' && agent.phase === 'awaiting_approval')) agents.set(agent.agent_id, agent);
  };
  for (const run of runs) {
    if (run.status !== 'running' && run.status !== 'awaiting_approval') continue;
    note(run.tabId, { agent_id: run.agent_id, kind: 'copilot', name: COPILOT_NAME, phase: run.status === 'awaiting_approval' ? 'awaiting_approval' : 'acting' });
  }
  for (const a of actions) {
    const phase = PHASE_OF[a.state];
    if (!phase || a.tabId === undefined) continue;
    note(a.tabId, { agent_id: a.agent_id, kind: isCopilot(a.agent_id) ? 'copilot' : 'mcp', name: agentName(a.agent_id, a.label), phase });
    const ref = refOf(a.input);
    if (ref) at(a.tabId).target ??= ref;
  }
  const out = new Map<number, TabPresence>();
  for (const [tabId, tab] of tabs) {
    const agents = [...tab.agents.values()].sort((x, y) => (x.phase === y.phase ? x.agent_id.localeCompare(y.agent_id) : x.phase === 'awaiting_approval' ? -1 : 1)).slice(0, 8);
    out.set(tabId, { agents, ...(tab.target ? { target_ref: tab.target } : {}) });
  }
  return out;
}

/** The toolbar badge of a tab an agent acts on: short, the same in every language; the title says it in words. */
export interface TabBadge {
  text: string;
  color: string;
  title: string;
}

/** The approval badge's colour (approval-announcer.ts): a tab whose agent waits for the person looks like a waiting card. */
export const WAITING_COLOR = '#b3261e';
const ACTING_COLOR = '#1a5fb4';

export function badgeFor(presence: TabPresence): TabBadge {
  const waiting = presence.agents.filter((a) => a.phase === 'awaiting_approval');
  const names = presence.agents.map((a) => a.name).join(', ');
  if (waiting.length > 0) {
    return { text: '?', color: WAITING_COLOR, title: `Steward: ${waiting.map((a) => a.name).join(', ')} waits for your approval on this page`.slice(0, 300) };
  }
  return { text: '▶', color: ACTING_COLOR, title: `Steward: ${names} is acting on this page`.slice(0, 300) };
}
