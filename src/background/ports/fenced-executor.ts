import type { ExecutionCall, ExecutionReport, Executor, PortContext, ResumeCall, ResumedExecution } from '../../pipeline/ports.ts';
import { checkStayed, closeTabsThatLeft, LeftAllowedSites, type TabControl } from './navigate.ts';

/**
 * Any step an agent takes in its tab (a click that follows a link or submits a form, a key that
 * submits, a page tool that sets location) runs with the tab fenced to the token's origins
 * (navigation/fence.ts): a navigation it causes that would leave them, on any redirect hop, is
 * stopped before its request reaches the other origin, and the step is reported SITE_NOT_ALLOWED.
 * The same for a new tab or window the step opens (a target="_blank" link or form, a window.open):
 * its navigation off the sites is stopped, the tab closed, and the step reported SITE_NOT_ALLOWED.
 */
export function fencedExecutor(
  executor: Executor,
  deps: { tabOf(ctx: PortContext): Promise<number | undefined>; tabs: Pick<TabControl, 'fence' | 'urlOf' | 'get' | 'close' | 'showsErrorPage'> },
): Executor {
  const status = executor.status?.bind(executor);
  const cancel = executor.cancel?.bind(executor);
  const resume = executor.resume?.bind(executor);

  /** Runs `work` with the agent's tab held to `origins`, then closes what left them and checks the tab stayed. */
  async function fenced(tabId: number, origins: readonly string[], held: Awaited<ReturnType<typeof deps.tabs.fence.hold>>, work: Promise<ExecutionReport>): Promise<ExecutionReport> {
    try {
      const report = await work;
      // The tabs the step opened settle under the fence too; any it sent off the sites is closed, whatever else happened.
      const newTabs = await closeTabsThatLeft(deps.tabs, await held.opened(), origins);
      if (report.outcome === 'failed' && report.code === 'SITE_NOT_ALLOWED') return report;
      try {
        await checkStayed(deps.tabs, tabId, origins);
      } catch (error) {
        if (error instanceof LeftAllowedSites) return stopped(error, true);
        throw error;
      }
      return newTabs.length > 0 ? openedElsewhere(newTabs) : report;
    } finally {
      await held.release();
    }
  }

  return {
    ...(status ? { status } : {}),
    ...(cancel ? { cancel } : {}),
    async execute(call: ExecutionCall): Promise<ExecutionReport> {
      const origins = call.allowed_origins;
      const tabId = origins ? await deps.tabOf(call.ctx) : undefined;
      if (!origins || tabId === undefined) return executor.execute(call);
      const held = await deps.tabs.fence.hold(tabId, origins);
      return fenced(
        tabId,
        origins,
        held,
        Promise.resolve().then(() => executor.execute(call)),
      );
    },
    // A call taken up after a restart finishes under the same fence as it started.
    ...(resume
      ? {
          async resume(call: ResumeCall): Promise<ResumedExecution | undefined> {
            const origins = call.allowed_origins;
            const tabId = origins ? await deps.tabOf(call.ctx) : undefined;
            if (!origins || tabId === undefined) return resume(call);
            const held = await deps.tabs.fence.hold(tabId, origins);
            const resumed = await resume(call).catch(async (error: unknown) => {
              await held.release();
              throw error;
            });
            if (!resumed) {
              await held.release();
              return undefined;
            }
            return { ...resumed, ended: fenced(tabId, origins, held, resumed.ended) };
          },
        }
      : {}),
  };
}

/** The report for a navigation the fence stopped. */
export function stopped(left: LeftAllowedSites, sideEffectPossible: boolean): ExecutionReport {
  return { outcome: 'failed', code: 'SITE_NOT_ALLOWED', ...(left.origin ? { origin: left.origin } : {}), message: left.message, side_effect_possible: sideEffectPossible };
}

/**
 * The report for a step whose new tabs the fence stopped: what the agent did on its own page may
 * have happened. A tab whose address Chrome hides from Steward (a site it has no access to) is
 * reported unnamed.
 */
function openedElsewhere(left: readonly LeftAllowedSites[]): ExecutionReport {
  const named = [...new Set(left.flatMap((l) => (l.origin ? [l.origin] : [])))];
  const where = named.length > 0 ? named.join(', ') : 'another site (one Steward has no access to)';
  return {
    outcome: 'failed',
    code: 'SITE_NOT_ALLOWED',
    ...(named[0] ? { origin: named[0] } : {}),
    message: `the action opened a new tab to ${where}, which is not one of the sites this agent may use: Steward stopped that navigation and closed the tab`,
    side_effect_possible: true,
  };
}
