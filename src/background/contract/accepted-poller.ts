/**
 * Follows actions a site accepted but has not finished (202 accepted): asks the pipeline to
 * re-check each about once a second for two minutes, and tells the panel when it settles. Timers
 * live in memory only: after a worker restart the pipeline's recheck alarm takes over.
 */

const POLL_EVERY_MS = 1_000;
const POLL_FOR_MS = 2 * 60_000;

export interface AcceptedPollerDeps {
  /** pipeline.recheck: re-reads the action (never runs it again); `finished` once confirmed or failed. */
  recheck(actionId: string): Promise<{ finished: boolean } | undefined>;
  /** The action settled: open panels refresh their activity view. */
  settled(actionId: string): void;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  everyMs?: number;
  forMs?: number;
}

export class AcceptedPoller {
  private readonly watching = new Set<string>();
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;

  constructor(private readonly deps: AcceptedPollerDeps) {
    this.now = deps.now ?? Date.now;
    this.setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  }

  /** Starts following `actionId` (once; a second call while it is followed does nothing). */
  watch(actionId: string): void {
    if (this.watching.has(actionId)) return;
    this.watching.add(actionId);
    this.next(actionId, this.now() + (this.deps.forMs ?? POLL_FOR_MS));
  }

  isWatching(actionId: string): boolean {
    return this.watching.has(actionId);
  }

  private next(actionId: string, until: number): void {
    this.setTimer(() => void this.poll(actionId, until), this.deps.everyMs ?? POLL_EVERY_MS);
  }

  private async poll(actionId: string, until: number): Promise<void> {
    let finished = false;
    try {
      const status = await this.deps.recheck(actionId);
      finished = status === undefined || status.finished;
    } catch (error) {
      console.warn('re-checking an accepted action failed', actionId, error);
    }
    if (finished) {
      this.watching.delete(actionId);
      this.deps.settled(actionId);
    } else if (this.now() < until) this.next(actionId, until);
    else this.watching.delete(actionId);
  }
}
