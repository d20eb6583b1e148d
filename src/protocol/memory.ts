import { z } from 'zod';
import { AgentId, IsoDateTime, JsonObject, prefixedId } from './primitives.ts';
import { ResourceRef, StateVersion } from './resource.ts';

/**
 * Memory (DESIGN §7): session memory is working memory; durable memory helps find the work
 * again but is never current truth. The schema refuses what must never be persisted as a first
 * line of defence; the memory store enforces the rest (TTL, re-verification on resume).
 */

const SessionMemoryKind = z.enum(['goal', 'plan', 'step_done', 'resource_in_hand', 'tool_result', 'pending_action']);
type SessionMemoryKind = z.infer<typeof SessionMemoryKind>;

export const DurableMemoryKind = z.enum([
  'unfinished_intent',
  'resource_id', // a stable resource id and where it was found (a URL only as a hint)
  'artifact',
  'audit_reference', // pointer into the audit log, which has its own store
  'granted_permission',
  'preference',
  'state_snapshot', // a past observation: always history_only
]);
export type DurableMemoryKind = z.infer<typeof DurableMemoryKind>;

/** What goes stale and causes wrong actions, so is never persisted (DESIGN §7). */
type NeverPersisted = 'tab_id' | 'dom_selector' | 'scroll_position' | 'transient_page_state' | 'expired_token' | 'mutable_conclusion_as_current';

const NEVER_PERSISTED_REASONS: Readonly<Record<NeverPersisted, string>> = {
  tab_id: 'tab, frame and window ids are reused and meaningless after a restart; resolve the resource instead',
  dom_selector: 'selectors break with the next deploy; resources and refs are the model',
  scroll_position: 'scroll positions are presentation, not state',
  transient_page_state: 'page markup, focus and hover are gone on the next load',
  expired_token: 'tokens live only in the token store, and expired ones nowhere',
  mutable_conclusion_as_current: 'a state such as awaiting_payment is only true when observed; store it as a history_only state_snapshot',
};

// Keys compared lower-cased with `_` and `-` removed, so tabId, tab_id and tab-id all match.
const FORBIDDEN_KEYS: ReadonlyArray<[RegExp, NeverPersisted]> = [
  [/^(?:tabids?|frameids?|windowids?|documentids?)$/, 'tab_id'],
  [/selector|^xpath$/, 'dom_selector'],
  [/^scroll/, 'scroll_position'],
  [/^(?:html|innerhtml|outerhtml|domsnapshot|viewport|hovered|focused)$/, 'transient_page_state'],
  [/^(?:token|accesstoken|refreshtoken|bearer|authorization|secret|password|credentials?)$/, 'expired_token'],
];
const STATE_KEYS = /^(?:state|currentstate)$/;

interface ForbiddenKey {
  path: (string | number)[];
  key: string;
  category: NeverPersisted;
}

/**
 * Finds payload keys that must never be persisted, at any depth. `allowState` lets a
 * history-only snapshot keep its `state`.
 */
function findForbiddenKeys(payload: unknown, allowState = false): ForbiddenKey[] {
  const found: ForbiddenKey[] = [];
  const walk = (value: unknown, path: (string | number)[], depth: number) => {
    if (depth > 32 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, [...path, i], depth + 1));
      return;
    }
    for (const [key, v] of Object.entries(value)) {
      const norm = key.toLowerCase().replace(/[_-]/g, '');
      const hit = FORBIDDEN_KEYS.find(([re]) => re.test(norm));
      if (hit) found.push({ path: [...path, key], key, category: hit[1] });
      else if (!allowState && STATE_KEYS.test(norm)) {
        found.push({ path: [...path, key], key, category: 'mutable_conclusion_as_current' });
      }
      walk(v, [...path, key], depth + 1);
    }
  };
  walk(payload, [], 0);
  return found;
}

export const MemoryId = prefixedId('mem_', 'mem_7c2');

const common = {
  id: MemoryId,
  agent_id: AgentId.optional(),
  resource: ResourceRef.optional(),
  payload: JsonObject,
  recorded_at: IsoDateTime,
  /** After this long the record is history only, even if nothing else changed. */
  ttl_ms: z.int().positive().optional(),
};

export const SessionMemoryRecord = z.object({
  ...common,
  layer: z.literal('session'),
  kind: SessionMemoryKind,
  session_id: z.string().min(1).max(128),
});
export type SessionMemoryRecord = z.infer<typeof SessionMemoryRecord>;

export const DurableMemoryRecord = z
  .object({
    ...common,
    layer: z.literal('durable'),
    kind: DurableMemoryKind,
    /** The resource's state_version when recorded: on resume a different version means history only. */
    state_version: StateVersion.optional(),
    /** Marks a record that must never be read as the current state. */
    history_only: z.boolean().optional(),
  })
  .superRefine((r, ctx) => {
    const snapshot = r.kind === 'state_snapshot';
    if (snapshot) {
      if (r.history_only !== true) ctx.addIssue({ code: 'custom', path: ['history_only'], message: 'a state_snapshot must be marked history_only: true' });
      if (r.state_version === undefined) ctx.addIssue({ code: 'custom', path: ['state_version'], message: 'a state_snapshot must record the state_version it saw' });
      if (r.resource === undefined) ctx.addIssue({ code: 'custom', path: ['resource'], message: 'a state_snapshot must name its resource' });
    }
    for (const f of findForbiddenKeys(r.payload, snapshot)) {
      ctx.addIssue({
        code: 'custom',
        path: ['payload', ...f.path],
        message: `must not be persisted (${f.category}): ${NEVER_PERSISTED_REASONS[f.category]}`,
      });
    }
  });
export type DurableMemoryRecord = z.infer<typeof DurableMemoryRecord>;

export const MemoryRecord = z.discriminatedUnion('layer', [SessionMemoryRecord, DurableMemoryRecord]);
export type MemoryRecord = z.infer<typeof MemoryRecord>;
