/** Milliseconds since the epoch. Injected everywhere so tests control time (expiry, TTLs, quotas). */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
