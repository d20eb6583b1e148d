import type { ObservedState } from '../protocol/observed-state.ts';
import { originOf } from '../base/origin.ts';
import { atOrigin, resourceKey, resourceMatches, type ResourceRef } from '../protocol/resource.ts';
import { stableMemoryId, type MemoryDraft, type MemoryStore, type RecalledMemory } from '../storage/memory-store.ts';

export interface ResumeAssessment {
  /** Freshly observed: the only current truth. */
  current: ObservedState;
  /** The newest remembered snapshot of this resource, if any. */
  snapshot?: RecalledMemory;
  /** Memory about this resource may only be shown as history. */
  history_only: boolean;
  /** Why: the state moved on, the snapshot is past its TTL, or there is none. */
  reason: 'unchanged' | 'state_version_changed' | 'ttl_expired' | 'no_snapshot';
  /** The agent must plan again from `current` rather than continue a remembered plan. */
  replan: boolean;
}

export interface OutcomeMemory {
  resource: ResourceRef;
  agent_id: string;
  session_id?: string;
  action_id: string;
  action: string;
  outcome: string;
  audit_id?: string;
  after?: ObservedState | null;
}

/**
 * Step 3, memory resolver: memory finds the work again (stable ids, a URL to try, earlier
 * results) but is never current truth. On resume the resource is resolved afresh and read; if
 * its state_version moved or the snapshot is past its TTL, memory is history only and the agent
 * re-plans.
 */
export class MemoryResolver {
  constructor(readonly store: MemoryStore) {}

  /** Remembered URLs of the resource, newest first: hints the navigator must verify. */
  async urlHints(resource: ResourceRef): Promise<string[]> {
    const hints: string[] = [];
    for (const { record } of await this.store.recall(resource, ['resource_id'])) {
      const url = record.payload.url_hint;
      if (typeof url === 'string' && !hints.includes(url)) hints.push(url);
    }
    return hints;
  }

  assess(current: ObservedState, recalled: readonly RecalledMemory[]): ResumeAssessment {
    const snapshot = recalled.find((m) => m.record.kind === 'state_snapshot');
    if (!snapshot) return { current, history_only: true, reason: 'no_snapshot', replan: true };
    if (snapshot.record.state_version !== current.state_version) return { current, snapshot, history_only: true, reason: 'state_version_changed', replan: true };
    if (snapshot.expired) return { current, snapshot, history_only: true, reason: 'ttl_expired', replan: true };
    return { current, snapshot, history_only: false, reason: 'unchanged', replan: false };
  }

  /**
   * Resumes work on a resource: `observeFresh` resolves it afresh (via the navigator) and reads
   * it; the snapshot compared is the one of the site it was found on, never another site's.
   */
  async resume(resource: ResourceRef, observeFresh: (resource: ResourceRef) => Promise<ObservedState | null>): Promise<ResumeAssessment | null> {
    const current = await observeFresh(resource);
    const origin = current ? originOf(current.url) : undefined;
    if (!current || !origin) return null;
    return this.assess(current, await this.store.recall(atOrigin(resource, origin), ['state_snapshot']));
  }

  /** What an action leaves behind: where the resource was found, the state seen (as history), the audit pointer. */
  async recordOutcome(o: OutcomeMemory): Promise<void> {
    const drafts: MemoryDraft[] = [];
    const site = o.after ? originOf(o.after.url) : undefined;
    const after = o.after && site !== undefined && resourceMatches(o.resource, atOrigin(o.after.resource, site)) ? o.after : undefined;
    // Remembered as the resource of the site it was seen on (origin, type, id).
    const resource = after && site ? atOrigin(o.resource, site) : o.resource;
    const agent = o.agent_id as `agent:${string}`;
    if (after) {
      // One hint per URL and one snapshot per resource: newer ones replace older ones.
      const key = resourceKey(resource);
      drafts.push({
        id: stableMemoryId('resource_id', key, after.url),
        layer: 'durable',
        kind: 'resource_id',
        agent_id: agent,
        resource,
        payload: { url_hint: after.url, source: after.source },
      });
      drafts.push({
        id: stableMemoryId('state_snapshot', key),
        layer: 'durable',
        kind: 'state_snapshot',
        agent_id: agent,
        resource,
        state_version: after.state_version,
        history_only: true,
        payload: { state: after.state, observed_at: after.observed_at, source: after.source },
      });
    }
    drafts.push({
      layer: 'durable',
      kind: 'audit_reference',
      agent_id: agent,
      resource,
      payload: { action_id: o.action_id, action: o.action, outcome: o.outcome, ...(o.audit_id ? { audit_id: o.audit_id } : {}) },
    });
    if (o.session_id) {
      drafts.push({ layer: 'session', kind: 'step_done', session_id: o.session_id, agent_id: agent, resource, payload: { action_id: o.action_id, action: o.action, outcome: o.outcome } });
    }
    await this.store.rememberAll(drafts);
  }
}
