import { resourceKey, type ResourceRef } from '../protocol/resource.ts';
import type { StoredAction } from '../storage/action-record.ts';
import type { PipelineDeps } from './runner.ts';

/**
 * What one agent may read back about its own work (the MCP bridge's `steward_memory`): its
 * unfinished actions from the journal, and the resources durable memory remembers it working on —
 * history and hints only, never current truth. Nothing of another agent's.
 */

interface KnownResource {
  resource: ResourceRef;
  /** The state last seen there (a history-only snapshot). */
  last_state?: string;
  seen_at: string;
  url_hint?: string;
}

export interface AgentRecords {
  unfinished: StoredAction[];
  resources: KnownResource[];
}

const MAX_RESOURCES = 500;
/** (origin, type, id): the same order id on two sites is two remembered resources. */
const keyOf = resourceKey;

export async function agentRecords(deps: Pick<PipelineDeps, 'journal' | 'memory'>, agentId: string): Promise<AgentRecords> {
  const [open, hints, snapshots] = await Promise.all([deps.journal.unfinished(), deps.memory.store.ofKind('resource_id'), deps.memory.store.ofKind('state_snapshot')]);
  const lastState = new Map<string, string>();
  for (const { record } of snapshots) {
    const state = record.payload.state;
    if (record.agent_id === agentId && record.resource && typeof state === 'string' && !lastState.has(keyOf(record.resource))) lastState.set(keyOf(record.resource), state);
  }
  const resources = new Map<string, KnownResource>();
  for (const { record } of hints) {
    if (record.agent_id !== agentId || !record.resource || resources.has(keyOf(record.resource))) continue;
    const url = record.payload.url_hint;
    const state = lastState.get(keyOf(record.resource));
    resources.set(keyOf(record.resource), {
      resource: record.resource,
      seen_at: record.recorded_at,
      ...(typeof url === 'string' ? { url_hint: url } : {}),
      ...(state ? { last_state: state } : {}),
    });
  }
  return {
    unfinished: open.filter((a) => a.agent_id === agentId).sort((a, b) => b.updated_at - a.updated_at),
    resources: [...resources.values()].slice(0, MAX_RESOURCES),
  };
}
