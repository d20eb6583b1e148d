/**
 * Keeps the service worker alive while a co-pilot run is active. Chrome stops an idle MV3 worker
 * after about 30 s without extension events or API calls, and a run can sit for longer than that
 * (waiting for the model, or for the person's approval); each extension API call resets the idle
 * timer, so one cheap call every 20 s keeps the run in memory. Should the worker be stopped anyway,
 * the run resumes from its record (run-manager.ts restore()).
 */
const KEEP_ALIVE_MS = 20_000;

export class KeepAlive {
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly ping: () => Promise<unknown>) {}

  /** Pings while `active` > 0, stops when nothing is left to keep alive. */
  update(active: number): void {
    if (active > 0 && this.timer === undefined) this.timer = setInterval(() => void this.ping().catch(() => undefined), KEEP_ALIVE_MS);
    if (active === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
