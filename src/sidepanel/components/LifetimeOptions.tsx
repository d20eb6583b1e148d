import { LIFETIMES } from '../lib/time.ts';

/** The token lifetimes a person may pick, plus the current one when it is none of them (set elsewhere). */
export function LifetimeOptions({ minutes }: { minutes: number }) {
  const lifetimes = LIFETIMES.some(([, m]) => m === minutes) ? LIFETIMES : [...LIFETIMES, [`${minutes} minutes`, minutes] as const];
  return (
    <>
      {lifetimes.map(([label, m]) => (
        <option key={m} value={String(m)}>
          {label}
        </option>
      ))}
    </>
  );
}
