import { openPipeline, type OpenPipelineOptions } from '../../pipeline/create.ts';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import type { RecoveryReport } from '../../pipeline/recovery.ts';

/**
 * The pipeline's life in the service worker. The worker may have been killed mid-action (MV3), so
 * before anything is accepted the database is opened and every unfinished action is claimed for
 * recovery (`recover()`); callers await `ready` and are thereby queued until then. The page reads
 * that resolve those actions go on in the background (`recovered`): a replay of their keys meanwhile
 * answers IN_PROGRESS, and a tab still loading never holds up the panel or other agents. A failed
 * start (the database would not open) is retried by the next caller instead of poisoning the worker.
 */
export class PipelineService {
  private starting: Promise<Pipeline> | undefined;
  private recovering: Promise<void> = Promise.resolve();
  /** What the last start-up recovery did, for diagnostics and tests (filled once it has finished). */
  recovery: RecoveryReport[] = [];

  /** `policyRead`: the organisation's policy is in, so no action is decided before it applies. */
  constructor(private readonly deps: OpenPipelineOptions & { onReady?: (pipeline: Pipeline) => void | Promise<void>; policyRead?: Promise<void> }) {}

  get ready(): Promise<Pipeline> {
    this.starting ??= this.start().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  /** Resolves once start-up recovery has resolved every action it found (or failed). */
  get recovered(): Promise<void> {
    return this.ready.then(() => this.recovering);
  }

  private async start(): Promise<Pipeline> {
    const { onReady, policyRead, ...options } = this.deps;
    await policyRead;
    const pipeline = await openPipeline(options);
    let claimed!: () => void;
    const allClaimed = new Promise<void>((resolve) => (claimed = resolve));
    this.recovering = pipeline.recover(claimed).then(
      (reports) => {
        this.recovery = reports;
      },
      // Unreadable journal: refuse nothing silently, but do not lock the person out of the panel.
      (error: unknown) => console.error('recovery failed', error),
    );
    await Promise.race([allClaimed, this.recovering]);
    await onReady?.(pipeline);
    return pipeline;
  }
}
