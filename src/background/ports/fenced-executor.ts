import type { ExecutionCall, ExecutionReport, Executor, PortContext } from '../../pipeline/ports.ts';
import { checkStayed, LeftAllowedSites, type TabControl } from './navigate.ts';

/**
 * Any step an agent takes in its tab (a click that follows a link or submits a form, a key that
 * submits, a page tool that sets location) runs with the tab fenced to the token's origins
 * (navigation/fence.ts): a navigation it causes that would leave them, on any redirect hop, is
 * stopped before its request reaches the other origin, and the step is reported SITE_NOT_ALLOWED.
 */
export function fencedExecutor(executor: Executor, deps: { tabOf(ctx: PortContext): Promise<number | undefined>; tabs: Pick<TabControl, 'fence' | 'urlOf'> }): Executor {
  const status = executor.status?.bind(executor);
  return {
    ...(status ? { status } : {}),
    async execute(call: ExecutionCall): Promise<ExecutionReport> {
      const origins = call.allowed_origins;
      const tabId = origins ? await deps.tabOf(call.ctx) : undefined;
      if (!origins || tabId === undefined) return executor.execute(call);
      const release = await deps.tabs.fence.hold(tabId, origins);
      try {
        const report = await executor.execute(call);
        if (report.outcome === 'failed' && report.code === 'SITE_NOT_ALLOWED') return report;
        try {
          await checkStayed(deps.tabs, tabId, origins);
        } catch (error) {
          if (error instanceof LeftAllowedSites) return stopped(error, true);
          throw error;
        }
        return report;
      } finally {
        await release();
      }
    },
  };
}

/** The report for a navigation the fence stopped. */
export function stopped(left: LeftAllowedSites, sideEffectPossible: boolean): ExecutionReport {
  return { outcome: 'failed', code: 'SITE_NOT_ALLOWED', ...(left.origin ? { origin: left.origin } : {}), message: left.message, side_effect_possible: sideEffectPossible };
}
