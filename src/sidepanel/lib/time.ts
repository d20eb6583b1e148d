/** Time formatting for cards and lists (pure; `now` is always passed in so it can be tested). */

/** Milliseconds left until `expiresAt`, never negative. */
export function msLeft(expiresAt: string, now: number): number {
  return Math.max(0, Date.parse(expiresAt) - now);
}

/** `4:05` for a short countdown, `2 h 10 min` / `3 days` for long ones. */
export function countdown(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  const h = Math.floor(s / 3600);
  if (h < 48) return `${h} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(h / 24)} days`;
}

/** Local wall-clock time, with the date when it is not today. */
export function clockTime(iso: string, now: number): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const sameDay = new Date(now).toDateString() === d.toDateString();
  const time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return sameDay ? time : `${d.toLocaleDateString([], { month: 'short', day: 'numeric' })} ${time}`;
}

/** "12 s ago", "5 min ago", "3 h ago": for an observation's age. */
export function ago(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}

/** Lifetimes offered in the mint form and settings, in minutes (label, value). */
export const LIFETIMES: ReadonlyArray<readonly [string, number]> = [
  ['15 minutes', 15],
  ['1 hour', 60],
  ['8 hours', 8 * 60],
  ['1 day', 24 * 60],
  ['7 days', 7 * 24 * 60],
  ['30 days', 30 * 24 * 60],
];
