/** Time formatting for cards and lists, in the browser's UI language (pure; `now` is always passed in so it can be tested). */
import { formatNumber, pluralOf, t, uiLocale } from '../../base/i18n.ts';

/** Milliseconds left until `expiresAt`, never negative. */
export function msLeft(expiresAt: string, now: number): number {
  return Math.max(0, Date.parse(expiresAt) - now);
}

/** `4:05` for a short countdown, `2 h 10 min` / `3 days` for long ones. */
export function countdown(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${formatNumber(Math.floor(s / 60))}:${new Intl.NumberFormat(uiLocale(), { minimumIntegerDigits: 2 }).format(s % 60)}`;
  const h = Math.floor(s / 3600);
  if (h < 48) return t('time_hours_minutes', h, Math.floor((s % 3600) / 60));
  return duration('days', Math.floor(h / 24));
}

/** Local wall-clock time (to the second unless `seconds: false`), with the date when it is not today. */
export function clockTime(iso: string, now: number, { seconds = true }: { seconds?: boolean } = {}): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const sameDay = new Date(now).toDateString() === d.toDateString();
  const time = d.toLocaleTimeString(uiLocale(), { hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}) });
  return sameDay ? time : `${d.toLocaleDateString(uiLocale(), { month: 'short', day: 'numeric' })} ${time}`;
}

/** Local midnight starting the day `now` is in: a `now` for what changes only with the date (clockTime's date). */
export function startOfDay(now: number): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/** "12 s ago", "5 min ago", "3 h ago": for an observation's age. */
export function ago(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 5) return t('time_just_now');
  if (s < 60) return t('time_seconds_ago', s);
  if (s < 3600) return t('time_minutes_ago', Math.round(s / 60));
  return t('time_hours_ago', Math.round(s / 3600));
}

/** "15 minutes", "1 hour", "7 days": a whole number of one unit. */
function duration(unit: 'minutes' | 'hours' | 'days', n: number): string {
  return pluralOf(n) === 'one' ? t(`time_${unit}_one`, n) : t(`time_${unit}_other`, n);
}

/** Lifetimes offered in the mint form and settings, in minutes (label, value). */
export const lifetimes = (): ReadonlyArray<readonly [string, number]> => [
  [duration('minutes', 15), 15],
  [duration('hours', 1), 60],
  [duration('hours', 8), 8 * 60],
  [duration('days', 1), 24 * 60],
  [duration('days', 7), 7 * 24 * 60],
  [duration('days', 30), 30 * 24 * 60],
];
