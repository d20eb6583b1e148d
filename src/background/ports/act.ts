import type { ActReport, ActStep } from '../../protocol/messages.ts';
import type { ExecutionReport } from '../../pipeline/ports.ts';
import { watchTab, type TabEvents } from './tab-wait.ts';
import { DeadlineExceeded } from '../../base/deadline.ts';
import type { SendToFrame } from '../pages/messenger.ts';
import type { Reply } from '../../protocol/channel.ts';

/**
 * Sends DOM steps to the tab's top frame (src/content/act/) and turns the page's report into an
 * ExecutionReport without claiming more than the page said: nothing done → failed without side
 * effect; anything done and then a refusal or an error → failed, side effect possible; a reply
 * lost after sending (the page unloaded) → failed, side effect possible. The effect itself is
 * verified afterwards by re-observing (the pipeline's job).
 */

const TOP_FRAME = 0;
/** The messenger's refusals for an answer that says nothing of what the page did: it may have acted. */
const UNKNOWN_ANSWER = new Set(['INVALID_REPLY', 'NO_CONTENT_SCRIPT']);
/** How long to wait for a navigation to start after an act that did not announce one (a script may navigate). */
const QUIET_NAVIGATION_MS = 400;
/** … and after a click that submitted a form or followed a link. */
const ANNOUNCED_NAVIGATION_MS = 5_000;

export async function actOnTab(deps: { send: SendToFrame; tabs: TabEvents }, tabId: number, steps: ActStep[], documentToken: string | undefined): Promise<ExecutionReport> {
  const watch = watchTab(deps.tabs, tabId);
  try {
    let reply: Reply<ActReport>;
    try {
      reply = await deps.send(tabId, TOP_FRAME, 'content/act', { steps, ...(documentToken ? { documentToken } : {}) });
    } catch (error) {
      // Sent, and the page never answered (its script is stuck): it may or may not have acted.
      if (error instanceof DeadlineExceeded) return { outcome: 'timed_out', message: error.message };
      // Either it never arrived (nothing happened) or the page went away while answering.
      const navigated = watch.navigated;
      await watch.settled(QUIET_NAVIGATION_MS);
      return { outcome: 'failed', message: `the page did not answer: ${error instanceof Error ? error.message : String(error)}`, side_effect_possible: navigated };
    }
    if (!reply.ok && UNKNOWN_ANSWER.has(reply.error.code)) return { outcome: 'failed', message: 'the page answered with something that is not an act report', side_effect_possible: true };
    if (!reply.ok) return { outcome: 'failed', message: `${reply.error.code}: ${reply.error.message}`, side_effect_possible: false };
    const report = reply.data;
    const announced = report.steps.some((s) => s.navigation);
    // Let a navigation the act set off finish, so the next observation sees the new page.
    await watch.settled(announced ? ANNOUNCED_NAVIGATION_MS : QUIET_NAVIGATION_MS);
    return toExecutionReport(report);
  } finally {
    watch.dispose();
  }
}

export function toExecutionReport(report: ActReport): ExecutionReport {
  const steps = report.steps;
  const said = steps.map((s) => `${s.op}${s.ref ? ` ${s.ref}` : ''}: ${s.status}${s.code ? ` (${s.code})` : ''} — ${s.message}`).join('; ');
  if (steps.length > 0 && steps.every((s) => s.status === 'done')) return { outcome: 'completed' };
  const done = steps.some((s) => s.status === 'done');
  const threw = steps.some((s) => s.status === 'failed');
  return { outcome: 'failed', message: said.slice(0, 3500) || 'no step ran', side_effect_possible: done || threw };
}
