import { browser } from './browser.ts';

/**
 * Periodic work that must happen even when nobody is looking (chrome.alarms wake the worker):
 * purge (`pipeline.admin.purge()`: expired tokens, idempotency records, approval cards) and
 * recheck (`pipeline.recheckOpen()`: actions left `pending_confirmation` or `unknown`, re-read,
 * never executed again, never navigating a tab).
 */

export const PURGE_ALARM = 'steward.purge';
export const RECHECK_ALARM = 'steward.recheck';

export async function ensureAlarms(): Promise<void> {
  // Re-creating an alarm resets its schedule: only create what is missing.
  if (!(await browser.alarms.get(PURGE_ALARM))) await browser.alarms.create(PURGE_ALARM, { delayInMinutes: 1, periodInMinutes: 60 });
  if (!(await browser.alarms.get(RECHECK_ALARM))) await browser.alarms.create(RECHECK_ALARM, { delayInMinutes: 1, periodInMinutes: 1 });
}
