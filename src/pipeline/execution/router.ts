import { PAGE_DEADLINES } from '../../protocol/deadlines.ts';
import { DeadlineExceeded, withDeadline } from '../../base/deadline.ts';
import type { ExecutionCall, ExecutionReport, Executors } from '../ports.ts';

/**
 * Step 8: runs the call on the path the capability check chose, and normalises what comes back
 * so no path claims more authority than it has (DESIGN §1):
 * - only the site_contract executor can report `confirmed`; any other path's "confirmed" is
 *   treated as `completed` and verified by re-observing;
 * - a declarative WebMCP form without `toolautosubmit` is filled but waits for the user: it is
 *   `accepted` (pending), never done;
 * - an executor that throws may have had an effect: `failed` with side_effect_possible;
 * - one that does not answer in time (its own page calls, or this backstop) is `timed_out`.
 */
export async function dispatch(call: ExecutionCall, executors: Executors, deadlineMs: number = PAGE_DEADLINES.execution_ms): Promise<ExecutionReport> {
  const executor = executors[call.via];
  if (!executor) return { outcome: 'failed', message: `no executor for the ${call.via} path`, side_effect_possible: false };
  let report: ExecutionReport;
  try {
    report = await withDeadline(executor.execute(call), deadlineMs, `the ${call.via} executor`);
  } catch (error) {
    if (error instanceof DeadlineExceeded) return { outcome: 'timed_out', message: error.message };
    return { outcome: 'failed', message: error instanceof Error ? error.message : String(error), side_effect_possible: true };
  }
  if (report.outcome === 'confirmed' && call.via !== 'site_contract') report = { outcome: 'completed' };
  if (call.via === 'webmcp' && call.tool?.kind === 'declarative' && call.tool.autosubmit !== true && (report.outcome === 'completed' || report.outcome === 'confirmed')) {
    return { outcome: 'accepted' };
  }
  return report;
}
