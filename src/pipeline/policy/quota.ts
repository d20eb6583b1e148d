import type { AgentUsage } from '../../storage/quota-record.ts';

/** Per-agent limits: a burst limit per minute and a daily quota. */
export interface QuotaLimits {
  per_minute: number;
  per_day: number;
}

const DEFAULT_LIMITS: QuotaLimits = { per_minute: 60, per_day: 2000 };

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export type QuotaCheck = { ok: true } | { ok: false; limit: 'per_minute' | 'per_day'; retry_after_ms: number };

/**
 * Rate limit (sliding one-minute window) and quota (fixed 24-hour window) per agent. Counted in
 * memory so the gateway stays synchronous; `onCount` persists each change (src/storage/
 * quota-store.ts) and `restore` reloads the counters when the service worker starts again.
 */
export class RateLimiter {
  private readonly usage = new Map<string, AgentUsage>();

  constructor(
    private readonly limitsFor: (agentId: string) => QuotaLimits = () => DEFAULT_LIMITS,
    private readonly onCount?: (agentId: string, usage: AgentUsage) => void,
  ) {}

  /** Counters saved by an earlier service worker; ones already in memory are kept. */
  restore(saved: ReadonlyArray<AgentUsage & { agent_id: string }>): void {
    for (const s of saved) {
      if (!this.usage.has(s.agent_id)) this.usage.set(s.agent_id, { recent: [...s.recent].sort((a, b) => a - b), day_start: s.day_start, day_count: s.day_count });
    }
  }

  /** Counts one action for the agent if its limits allow it. */
  take(agentId: string, now: number): QuotaCheck {
    const limits = this.limitsFor(agentId);
    let u = this.usage.get(agentId);
    if (!u) {
      u = { recent: [], day_start: now, day_count: 0 };
      this.usage.set(agentId, u);
    }
    if (now - u.day_start >= DAY) {
      u.day_start = now;
      u.day_count = 0;
    }
    while (u.recent.length > 0 && u.recent[0]! <= now - MINUTE) u.recent.shift();
    if (u.day_count >= limits.per_day) return { ok: false, limit: 'per_day', retry_after_ms: u.day_start + DAY - now };
    if (u.recent.length >= limits.per_minute) {
      const oldest = u.recent[u.recent.length - limits.per_minute] ?? now;
      return { ok: false, limit: 'per_minute', retry_after_ms: Math.max(1, oldest + MINUTE - now) };
    }
    u.recent.push(now);
    u.day_count++;
    this.onCount?.(agentId, u);
    return { ok: true };
  }
}
