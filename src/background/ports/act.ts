import type { ActReport, ActStep, PageDialog } from '../../protocol/messages.ts';
import type { ExecutionReport } from '../../pipeline/ports.ts';
import { watchTab, type TabEvents } from './tab-wait.ts';
import { DeadlineExceeded } from '../../base/deadline.ts';
import type { SendToFrame } from '../core/messenger.ts';
import type { Reply } from '../../protocol/channel.ts';
import type { TabObserver } from './tab-observer.ts';

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
/**
 * A reply lost after sending (the page went away while answering) says nothing of a navigation:
 * give one this long to show itself before re-observing.
 */
const LOST_REPLY_NAVIGATION_MS = 400;
/** How long a navigation the page announced may take to start loading in the tab. */
const ANNOUNCED_NAVIGATION_MS = 5_000;

/**
 * The content script answers once the page settled by its own events (src/content/act/settle.ts)
 * and says whether a navigation started; only then (or when the tab is already loading) does the
 * worker wait for the tab to load. No fixed wait after an ordinary act.
 */
export async function actOnTab(
  deps: { send: SendToFrame; tabs: TabEvents; observer?: Partial<Pick<TabObserver, 'actSettled'>> },
  tabId: number,
  steps: ActStep[],
  documentToken: string | undefined,
): Promise<ExecutionReport> {
  const watch = watchTab(deps.tabs, tabId);
  try {
    let reply: Reply<ActReport>;
    try {
      reply = await deps.send(tabId, TOP_FRAME, 'content/act', { steps, ...(documentToken ? { documentToken } : {}) });
    } catch (error) {
      // Sent, and the page never answered (its script is stuck): it may or may not have acted.
      if (error instanceof DeadlineExceeded) return { outcome: 'timed_out', message: error.message };
      // Either it never arrived (nothing happened) or the page went away while answering.
      await watch.settled(LOST_REPLY_NAVIGATION_MS);
      return { outcome: 'failed', message: `the page did not answer: ${error instanceof Error ? error.message : String(error)}`, side_effect_possible: watch.navigated };
    }
    if (!reply.ok && UNKNOWN_ANSWER.has(reply.error.code)) return { outcome: 'failed', message: 'the page answered with something that is not an act report', side_effect_possible: true };
    if (!reply.ok) return { outcome: 'failed', message: `${reply.error.code}: ${reply.error.message}`, side_effect_possible: false };
    const report = reply.data;
    if (leavesDocument(report) || watch.navigated) await watch.settled(ANNOUNCED_NAVIGATION_MS);
    // The page came to rest by its own events after the act: the re-observation that finds it so need not hold the new state (tab-observer.ts).
    else if (report.page_key && report.settle?.how === 'quiet') deps.observer?.actSettled?.(tabId, report.page_key);
    return toExecutionReport(report);
  } finally {
    watch.dispose();
  }
}

/** The page said its document is being left: a submitted form, a followed link, a navigation nobody intercepted. */
function leavesDocument(report: ActReport): boolean {
  return report.steps.some((s) => s.navigation) || report.navigation?.same_document === false || report.settle?.how === 'navigating';
}

function toExecutionReport(report: ActReport): ExecutionReport {
  const steps = report.steps;
  const activity =
    report.settle || report.requests?.length ? { activity: { ...(report.settle ? { settle: report.settle } : {}), ...(report.requests?.length ? { requests: report.requests } : {}) } } : {};
  const said = steps.map((s) => `${s.op}${s.ref ? ` ${s.ref}` : ''}: ${s.status}${s.code ? ` (${s.code})` : ''} — ${s.message}`).join('; ');
  const done = steps.some((s) => s.status === 'done');
  // The page asked the person something while the agent acted: answered "no", so what the agent meant did not happen; it is the person's to do.
  if (report.dialogs?.length) return { outcome: 'failed', message: dialogsMessage(report.dialogs), side_effect_possible: done, ...activity };
  if (steps.length > 0 && steps.every((s) => s.status === 'done')) return { outcome: 'completed', ...activity };
  const threw = steps.some((s) => s.status === 'failed');
  // Nothing happened: the step that refused says why, as data for the panel too.
  const refusal = done || threw ? undefined : steps.find((s) => s.status === 'refused')?.message_said;
  return { outcome: 'failed', message: said.slice(0, 3500) || 'no step ran', ...(refusal ? { message_said: refusal } : {}), side_effect_possible: done || threw, ...activity };
}

const DIALOG_WORDS: Record<PageDialog['kind'], string> = { confirm: 'a confirmation (window.confirm)', prompt: 'a question (window.prompt)', alert: 'a message (window.alert)' };

/** What the agent is told when the page raised a dialog during its act: Steward answered no, and only the person may say yes. */
function dialogsMessage(dialogs: readonly PageDialog[]): string {
  const asked = dialogs.map((d) => `${DIALOG_WORDS[d.kind]}${d.message ? ` “${d.message}”` : ''}`).join('; ');
  return `NEEDS_PERSON: the page asked the person ${asked} while this action ran. Steward never answers a page’s dialog for an agent: it answered as a person who says no (Cancel), so the page went on as if the person declined. Ask the person to do this on the page themselves.`.slice(
    0,
    3500,
  );
}
