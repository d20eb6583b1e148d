import { signal } from '@preact/signals';

/** Wall-clock time, ticking once a second: drives countdowns and "expired" without each card running a timer. */
export const now = signal(Date.now());

export function startClock(): void {
  setInterval(() => (now.value = Date.now()), 1000);
}
