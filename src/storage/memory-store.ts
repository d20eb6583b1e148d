import { DurableMemoryRecord, MemoryRecord, SessionMemoryRecord, type DurableMemoryKind } from '../protocol/memory.ts';
import type { ResourceRef } from '../protocol/resource.ts';
import { parseOrError, type ValidationError } from '../protocol/validate.ts';
import { iso, systemClock, type Clock } from '../base/clock.ts';
import { newId } from '../base/ids.ts';
import { fnvPair } from '../base/hash.ts';
import type { StewardDb } from './db.ts';
import { readValid } from './read.ts';

/** A past observation is history after this long even when nothing else says so. */
const DEFAULT_SNAPSHOT_TTL_MS = 15 * 60 * 1000;

type Draft<T> = T extends unknown ? Omit<T, 'id' | 'recorded_at'> & { id?: string } : never;
export type MemoryDraft = Draft<SessionMemoryRecord> | Draft<DurableMemoryRecord>;
export type MemoryWrite = { ok: true; record: MemoryRecord } | { ok: false; error: ValidationError };

export interface RecalledMemory {
  record: DurableMemoryRecord;
  /** Past its TTL: history only, whatever it says. */
  expired: boolean;
}

/**
 * DESIGN §7's layers, enforced here rather than trusted to callers:
 * - session memory lives in this object only (lost with the service worker, by design) and
 *   is dropped once past its TTL;
 * - durable memory goes to IndexedDB, validated by the protocol's DurableMemoryRecord, which
 *   refuses what must never be persisted (tab ids, selectors, scroll positions, transient page
 *   state, tokens, a mutable state stored as if current) at any depth of the payload;
 * - state snapshots are always history_only and always get a TTL.
 */
export class MemoryStore {
  private readonly sessions = new Map<string, SessionMemoryRecord[]>();

  constructor(
    private readonly db: StewardDb,
    private readonly clock: Clock = systemClock,
  ) {}

  private build(draft: MemoryDraft): MemoryWrite {
    const withDefaults = draft.layer === 'durable' && draft.kind === 'state_snapshot' && draft.ttl_ms === undefined ? { ...draft, ttl_ms: DEFAULT_SNAPSHOT_TTL_MS } : draft;
    const parsed = parseOrError(MemoryRecord, { ...withDefaults, id: withDefaults.id ?? newId('mem_'), recorded_at: iso(this.clock()) }, { what: 'memory record' });
    return parsed.ok ? { ok: true, record: parsed.value } : { ok: false, error: parsed.error };
  }

  async remember(draft: MemoryDraft): Promise<MemoryWrite> {
    return (await this.rememberAll([draft]))[0]!;
  }

  /** Validates every draft; stores the valid ones (durable ones in one transaction). */
  async rememberAll(drafts: readonly MemoryDraft[]): Promise<MemoryWrite[]> {
    const writes = drafts.map((d) => this.build(d));
    const durable: DurableMemoryRecord[] = [];
    for (const w of writes) {
      if (!w.ok) continue;
      if (w.record.layer === 'session') {
        const list = this.sessions.get(w.record.session_id) ?? [];
        list.push(w.record);
        this.sessions.set(w.record.session_id, list);
      } else durable.push(w.record);
    }
    if (durable.length > 0) {
      const tx = this.db.transaction('memory', 'readwrite');
      await Promise.all([...durable.map((r) => tx.store.put(r)), tx.done]);
    }
    return writes;
  }

  private live(r: { recorded_at: string; ttl_ms?: number | undefined }, now: number): boolean {
    return r.ttl_ms === undefined || Date.parse(r.recorded_at) + r.ttl_ms > now;
  }

  /** The session's working memory, oldest first, without records past their TTL. */
  session(sessionId: string): SessionMemoryRecord[] {
    const now = this.clock();
    const kept = (this.sessions.get(sessionId) ?? []).filter((r) => this.live(r, now));
    this.sessions.set(sessionId, kept);
    return [...kept];
  }

  endSession(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /**
   * Durable records about one resource (optionally only some kinds), newest first, each flagged
   * when past its TTL. A resource is (origin, type, id): for one that names its site, only that
   * site's records; a record written before resources had origins names none and is read as
   * another resource's (left out, never migrated: nothing says which site it was). A reference
   * without an origin gets every site's records of that type and id (URL hints the navigator
   * re-verifies, and whose sites it weighs).
   */
  async recall(resource: ResourceRef, kinds?: readonly DurableMemoryKind[]): Promise<RecalledMemory[]> {
    const now = this.clock();
    const raws = kinds
      ? (await Promise.all(kinds.map((k) => this.db.getAllFromIndex('memory', 'by_resource_kind', [resource.type, resource.id, k])))).flat()
      : await this.db.getAllFromIndex('memory', 'by_resource', [resource.type, resource.id]);
    return raws
      .map((raw) => readValid(DurableMemoryRecord, raw, 'memory', raw?.id))
      .filter((record) => resource.origin === undefined || record.resource?.origin === resource.origin)
      .sort((a, b) => Date.parse(b.recorded_at) - Date.parse(a.recorded_at))
      .map((record) => ({ record, expired: !this.live(record, now) }));
  }

  /** Durable records of one kind, newest first, each flagged when past its TTL. */
  async ofKind(kind: DurableMemoryKind): Promise<RecalledMemory[]> {
    const now = this.clock();
    return (await this.db.getAllFromIndex('memory', 'by_kind', kind))
      .map((raw) => readValid(DurableMemoryRecord, raw, 'memory', raw?.id))
      .sort((a, b) => Date.parse(b.recorded_at) - Date.parse(a.recorded_at))
      .map((record) => ({ record, expired: !this.live(record, now) }));
  }

  /** Every durable record, newest first, each flagged when past its TTL (the person's list in Settings). */
  async durable(): Promise<RecalledMemory[]> {
    const now = this.clock();
    const tx = this.db.transaction('memory');
    const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()]);
    return values
      .map((raw, i) => readValid(DurableMemoryRecord, raw, 'memory', keys[i]))
      .sort((a, b) => Date.parse(b.recorded_at) - Date.parse(a.recorded_at))
      .map((record) => ({ record, expired: !this.live(record, now) }));
  }

  /** Deletes one durable record; answers with it (undefined: there was none). */
  async forget(id: string): Promise<DurableMemoryRecord | undefined> {
    const tx = this.db.transaction('memory', 'readwrite');
    const raw = await tx.store.get(id);
    if (raw !== undefined) await tx.store.delete(id);
    await tx.done;
    // Deleted even when unreadable: the person asked for it to go.
    return raw === undefined ? undefined : DurableMemoryRecord.safeParse(raw).data;
  }

  /** Deletes every durable record about `origin` (remembersSite); answers how many went. */
  async forgetSite(origin: string): Promise<number> {
    const tx = this.db.transaction('memory', 'readwrite');
    let n = 0;
    for (let c = await tx.store.openCursor(); c; c = await c.continue()) {
      if (remembersSite(c.value, origin)) {
        await c.delete();
        n++;
      }
    }
    await tx.done;
    return n;
  }

  /** Deletes durable records recorded before `before` (ms). */
  async purgeBefore(before: number): Promise<number> {
    const tx = this.db.transaction('memory', 'readwrite');
    let n = 0;
    for (let c = await tx.store.openCursor(); c; c = await c.continue()) {
      if (Date.parse(c.value.recorded_at) < before) {
        await c.delete();
        n++;
      }
    }
    await tx.done;
    return n;
  }
}

/**
 * Whether a stored memory record is about `origin`: its resource is that site's, or it points
 * there (a URL hint). Read from the raw record, so a record too damaged to parse but naming the
 * site still goes when the person forgets it.
 */
function remembersSite(raw: unknown, origin: string): boolean {
  const r = raw as { resource?: { origin?: unknown }; payload?: { url_hint?: unknown } } | undefined;
  if (r?.resource?.origin === origin) return true;
  const hint = r?.payload?.url_hint;
  if (typeof hint !== 'string') return false;
  try {
    return new URL(hint).origin === origin;
  } catch {
    return false;
  }
}

/**
 * A stable memory id for records that replace their predecessor (the one URL hint per URL, the
 * latest snapshot per resource), so memory does not grow with every action.
 */
export function stableMemoryId(...parts: string[]): string {
  return `mem_s${fnvPair(parts.join('\u0000'))}`;
}
