import type { Pipeline } from '../../pipeline/pipeline.ts';
import { browser } from '../browser.ts';

/**
 * Periodic work that must happen even when nobody is looking (chrome.alarms wake the worker):
 * - purge: expired tokens (never kept, DESIGN §7), idempotency records past their ≥24 h, expired
 *   approval cards;
 * - recheck: actions left `pending_confirmation` or `unknown` are resolved by re-reading their
 *   resource (never by executing again), for a day after their last change. Nobody is watching:
 *   a recheck never navigates a tab (it reads the agent's tab only where it already shows the
 *   resource, or a contract endpoint) and reads nothing once the agent's token is revoked or expired.
 */

export const PURGE_ALARM = 'steward.purge';
export const RECHECK_ALARM = 'steward.recheck';
const RECHECK_FOR_MS = 24 * 60 * 60 * 1000;

export async function ensureAlarms(): Promise<void> {
  // Re-creating an alarm resets its schedule: only create what is missing.
  if (!(await browser.alarms.get(PURGE_ALARM))) await browser.alarms.create(PURGE_ALARM, { delayInMinutes: 1, periodInMinutes: 60 });
  if (!(await browser.alarms.get(RECHECK_ALARM))) await browser.alarms.create(RECHECK_ALARM, { delayInMinutes: 1, periodInMinutes: 1 });
}

export async function purge(pipeline: Pipeline): Promise<{ tokens: number; idempotency: number; approvals_pending: number }> {
  const { tokens, idempotency, approvals } = pipeline.deps;
  const [t, i] = await Promise.all([tokens.purgeExpired(), idempotency.purgeExpired()]);
  // Listing expires the cards whose time is up.
  const pending = await approvals.pending();
  return { tokens: t, idempotency: i, approvals_pending: pending.length };
}

/**
 * Backs off with age so a stuck action does not fill the audit log: every minute for the first
 * ten, every ten minutes for the first hour, then hourly, for a day (alarms fire about each minute).
 */
export function dueForRecheck(ageMs: number): boolean {
  if (ageMs < 0 || ageMs > RECHECK_FOR_MS) return false;
  const minutes = Math.floor(ageMs / 60_000);
  if (minutes < 10) return true;
  if (minutes < 60) return minutes % 10 === 0;
  return minutes % 60 === 0;
}

export async function recheckOpen(pipeline: Pipeline, now = Date.now()): Promise<string[]> {
  const rechecked: string[] = [];
  for (const action of await pipeline.deps.journal.unfinished()) {
    if (action.state !== 'pending_confirmation' && action.state !== 'unknown') continue;
    // A WebMCP form left for the person to send has nothing to check it against: any change of the
    // page would read as "inferred done". Only an agent's stated expectation can confirm it.
    if (action.state === 'pending_confirmation' && action.via === 'webmcp' && !action.context.expect) continue;
    if (!dueForRecheck(now - action.updated_at)) continue;
    try {
      await pipeline.recheck(action.action_id);
      rechecked.push(action.action_id);
    } catch (error) {
      console.warn('recheck failed for', action.action_id, error);
    }
  }
  return rechecked;
}
