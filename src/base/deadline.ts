/**
 * A call into a page or a site that did not answer within its deadline (DESIGN §9 invariant 9).
 * Ports throw it so the pipeline can tell "the page stalled" (TIMEOUT) from "nothing is there".
 */
export class DeadlineExceeded extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = 'DeadlineExceeded';
  }
}

/** `work`, or DeadlineExceeded once `ms` have passed (the work itself cannot be stopped; its late answer is dropped). */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(what, ms)), ms);
  });
  // A late rejection of `work` must not surface as an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
