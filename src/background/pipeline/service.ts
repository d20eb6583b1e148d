import { openPipeline, type OpenPipelineOptions } from '../../pipeline/create.ts';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import type { RecoveryReport } from '../../pipeline/recovery.ts';

/**
 * The pipeline's life in the service worker. The worker may have been killed mid-action (MV3), so
 * before anything is accepted the database is opened and every unfinished action is resumed or
 * resolved (`recover()`); callers await `ready` and are thereby queued until then. A failed start
 * (the database would not open) is retried by the next caller instead of poisoning the worker.
 */
export class PipelineService {
  private starting: Promise<Pipeline> | undefined;
  /** What the last start-up recovery did, for diagnostics and tests. */
  recovery: RecoveryReport[] = [];

  constructor(private readonly deps: OpenPipelineOptions & { onReady?: (pipeline: Pipeline) => void | Promise<void> }) {}

  get ready(): Promise<Pipeline> {
    this.starting ??= this.start().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  private async start(): Promise<Pipeline> {
    const { onReady, ...options } = this.deps;
    const pipeline = await openPipeline(options);
    try {
      this.recovery = await pipeline.recover();
    } catch (error) {
      // Unreadable journal: refuse nothing silently, but do not lock the person out of the panel.
      console.error('recovery failed', error);
    }
    await onReady?.(pipeline);
    return pipeline;
  }
}
