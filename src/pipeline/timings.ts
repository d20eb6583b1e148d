import type { Clock } from '../base/clock.ts';

/**
 * Measures the pipeline's own time: wall time minus time spent in ports (observation,
 * navigation, the site executing) and waiting for a person's approval.
 */
export interface PipelineTimings {
  total_ms: number;
  external_ms: number;
  approval_wait_ms: number;
  /** total − external − approval wait: what `gateway.overhead_*` reports. */
  overhead_ms: number;
}

export class Stopwatch {
  private readonly start: number;
  private external = 0;
  private approvalWait = 0;

  constructor(private readonly now: Clock = () => performance.now()) {
    this.start = now();
  }

  async outside<T>(fn: () => Promise<T>, kind: 'port' | 'approval' = 'port'): Promise<T> {
    const t0 = this.now();
    try {
      return await fn();
    } finally {
      const dt = this.now() - t0;
      if (kind === 'approval') this.approvalWait += dt;
      else this.external += dt;
    }
  }

  read(): PipelineTimings {
    const total = this.now() - this.start;
    return { total_ms: total, external_ms: this.external, approval_wait_ms: this.approvalWait, overhead_ms: Math.max(0, total - this.external - this.approvalWait) };
  }
}
