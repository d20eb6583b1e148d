import type { StewardDb } from './db.ts';
import { QuotaRecord, type AgentUsage } from './quota-record.ts';

/**
 * The rate limiter's counters in IndexedDB, so a service-worker restart (every idle 30 s in MV3)
 * does not hand an agent fresh windows. Writes are behind the synchronous gateway and serialised;
 * a corrupt record is skipped, which errs towards availability for that one agent.
 */
export class QuotaStore {
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: StewardDb) {}

  async all(): Promise<QuotaRecord[]> {
    const raw = await this.db.getAll('quota');
    return raw.flatMap((r) => {
      const parsed = QuotaRecord.safeParse(r);
      return parsed.success ? [parsed.data] : [];
    });
  }

  save(agentId: string, usage: AgentUsage): void {
    const record: QuotaRecord = { agent_id: agentId, recent: [...usage.recent], day_start: usage.day_start, day_count: usage.day_count };
    this.writes = this.writes.then(() => this.db.put('quota', record)).catch((e) => console.error('quota counters not saved', e));
  }

  /** Resolves when every save so far is written (tests, shutdown). */
  flushed(): Promise<unknown> {
    return this.writes;
  }
}
