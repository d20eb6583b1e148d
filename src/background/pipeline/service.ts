import type { Clock } from '../../base/clock.ts';
import { createPipeline } from '../../pipeline/create.ts';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import type { ApprovalNotifier, PipelinePorts } from '../../pipeline/ports.ts';
import type { RecoveryReport } from '../../pipeline/recovery.ts';
import type { TaintLedger } from '../../pipeline/taint.ts';
import type { StewardDb } from '../../storage/db.ts';
import type { AuditAnchor } from '../../storage/audit-log.ts';

/**
 * The pipeline's life in the service worker. The worker may have been killed mid-action (MV3), so
 * before anything is accepted the database is opened and every unfinished action is resumed or
 * resolved (`recover()`); callers await `ready` and are thereby queued until then. A failed start
 * (the database would not open) is retried by the next caller instead of poisoning the worker.
 */
export class PipelineService {
  private starting: Promise<{ pipeline: Pipeline; db: StewardDb }> | undefined;
  /** What the last start-up recovery did, for diagnostics and tests. */
  recovery: RecoveryReport[] = [];

  constructor(
    private readonly deps: {
      openDb: () => Promise<StewardDb>;
      ports: PipelinePorts;
      notifier?: ApprovalNotifier;
      /** Injected time (tests); the system clock otherwise. */
      clock?: Clock;
      onReady?: (pipeline: Pipeline) => void | Promise<void>;
      auditAnchor?: AuditAnchor;
      taint?: TaintLedger;
    },
  ) {}

  get ready(): Promise<Pipeline> {
    return this.started().then((s) => s.pipeline);
  }

  get db(): Promise<StewardDb> {
    return this.started().then((s) => s.db);
  }

  private started() {
    this.starting ??= this.start().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  private async start() {
    const db = await this.deps.openDb();
    const pipeline = createPipeline({ db, ports: this.deps.ports, ...(this.deps.notifier ? { notifier: this.deps.notifier } : {}), ...(this.deps.clock ? { clock: this.deps.clock } : {}), ...(this.deps.auditAnchor ? { auditAnchor: this.deps.auditAnchor } : {}), ...(this.deps.taint ? { taint: this.deps.taint } : {}) });
    try {
      this.recovery = await pipeline.recover();
    } catch (error) {
      // Unreadable journal: refuse nothing silently, but do not lock the person out of the panel.
      console.error('recovery failed', error);
    }
    await this.deps.onReady?.(pipeline);
    return { pipeline, db };
  }
}
