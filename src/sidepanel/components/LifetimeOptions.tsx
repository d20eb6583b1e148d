import { t } from '../../base/i18n.ts';
import { lifetimes as offered } from '../lib/time.ts';

/**
 * The token lifetimes a person may pick, plus the current one when it is none of them (set
 * elsewhere); with `max` (the organisation's cap), none longer than it, and the cap itself.
 */
export function LifetimeOptions({ minutes, max }: { minutes: number; max?: number }) {
  const fits = (m: number) => max === undefined || m <= max;
  const listed = offered().filter(([, m]) => fits(m));
  const extra = [minutes, ...(max !== undefined ? [max] : [])].filter((m, i, all) => fits(m) && all.indexOf(m) === i && !listed.some(([, l]) => l === m));
  const lifetimes = [...listed, ...extra.map((m) => [t('time_minutes_other', m), m] as const)].sort((a, b) => a[1] - b[1]);
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
