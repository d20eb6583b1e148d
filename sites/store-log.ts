/**
 * What every demo store keeps besides its own records, so tests can ask the server what really
 * happened: per-record counters and a bounded event log.
 */

/** Per-record counters (how often each thing happened to it), starting from `zero()`. */
export class RecordCounters<C extends { [K in keyof C]: number }> {
  private counts = new Map<string, C>();

  constructor(private readonly zero: () => C) {}

  /** Starts over with these records at zero. */
  reset(ids: Iterable<string>): void {
    this.counts = new Map([...ids].map((id) => [id, this.zero()]));
  }

  /** A new record starts at zero. */
  add(id: string): void {
    this.counts.set(id, this.zero());
  }

  bump(id: string, key: keyof C): void {
    const c = this.counts.get(id) ?? this.zero();
    (c[key] as number) += 1;
    this.counts.set(id, c);
  }

  /** A copy of one record's counters (zero for a record it never saw). */
  of(id: string): C {
    return { ...(this.counts.get(id) ?? this.zero()) };
  }

  /** Copies of every record's counters, by id. */
  all(): Record<string, C> {
    return Object.fromEntries([...this.counts].map(([id, c]) => [id, { ...c }]));
  }
}

const EVENT_LOG_LIMIT = 1000;

/** An append-only event log numbered from 1, keeping the newest EVENT_LOG_LIMIT events. */
export class EventLog<E extends { seq: number; at: string }> {
  private events: E[] = [];
  private seq = 0;

  clear(): void {
    this.events = [];
    this.seq = 0;
  }

  push(event: Omit<E, 'seq' | 'at'>): void {
    this.seq += 1;
    this.events.push({ seq: this.seq, at: new Date().toISOString(), ...event } as E);
    if (this.events.length > EVENT_LOG_LIMIT) this.events.splice(0, this.events.length - EVENT_LOG_LIMIT);
  }

  /** Copies of the events, oldest first. */
  list(): E[] {
    return this.events.map((e) => structuredClone(e));
  }
}
