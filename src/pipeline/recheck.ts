import type { StoredAction } from '../storage/action-record.ts';

/** Open actions are rechecked for a day after their last change, then left as they are. */
const RECHECK_FOR_MS = 24 * 60 * 60 * 1000;

/**
 * Backs off with age so a stuck action does not fill the audit log: every minute for the first
 * ten, every ten minutes for the first hour, then hourly, for a day (the recheck alarm fires
 * about each minute).
 */
function dueForRecheck(ageMs: number): boolean {
  if (ageMs < 0 || ageMs > RECHECK_FOR_MS) return false;
  const minutes = Math.floor(ageMs / 60_000);
  if (minutes < 10) return true;
  if (minutes < 60) return minutes % 10 === 0;
  return minutes % 60 === 0;
}

/** Which unfinished actions to re-read now: those left `pending_confirmation` or `unknown`, when due. */
export function dueRechecks(unfinished: readonly StoredAction[], now: number): StoredAction[] {
  return unfinished.filter((action) => {
    if (action.state !== 'pending_confirmation' && action.state !== 'unknown') return false;
    // A WebMCP form left for the person to send has nothing to check it against: any change of the
    // page would read as "inferred done". Only an agent's stated expectation can confirm it.
    if (action.state === 'pending_confirmation' && action.via === 'webmcp' && !action.context.expect) return false;
    return dueForRecheck(now - action.updated_at);
  });
}
