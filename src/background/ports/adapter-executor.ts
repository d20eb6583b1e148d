import { declaredEffect } from '../../pipeline/declared-effect.ts';
import type { ExecutionCall, ExecutionReport, Executor, PortContext } from '../../pipeline/ports.ts';
import type { ActStep } from '../../protocol/messages.ts';
import { actOnTab } from './act.ts';
import type { SendToFrame } from '../core/messenger.ts';
import type { TabEvents } from './tab-wait.ts';
import type { ObservedTab, TabObserver } from './tab-observer.ts';

/**
 * The adapter path: an adapter maps `orders.cancel` onto the page's own controls (its inputs and
 * the button that performs it). The binding comes from the observation the plan was made on; the
 * steps run through src/content/act/ with the same checks as any DOM action, on that
 * document only. The adapter never confirms: the expected resulting state is handed to
 * verification, which must observe it.
 */

export interface AdapterDeps {
  tabOf(ctx: PortContext): Promise<number | undefined>;
  /** `actSettled`: told when an act left the page at rest (act.ts). */
  observer: Pick<TabObserver, 'last'> & Partial<Pick<TabObserver, 'actSettled'>>;
  send: SendToFrame;
  tabs: TabEvents;
}

const fail = (message: string): ExecutionReport => ({ outcome: 'failed', message, side_effect_possible: false });

/** Fill each input's control (select or type), then activate the action's control. */
function adapterSteps(call: Pick<ExecutionCall, 'action' | 'input' | 'description'>, observed: ObservedTab): ActStep[] | string {
  const binding = observed.bindings.find((b) => b.action.action === call.action && (call.description.target_ref === undefined || b.targetRef === call.description.target_ref));
  if (!binding) return `the page no longer shows the controls for ${call.action}`;
  const steps: ActStep[] = [];
  for (const [name, value] of Object.entries(call.input)) {
    const ref = binding.inputRefs[name];
    if (!ref) return `the adapter maps no control for input "${name}"`;
    if (typeof value !== 'string' && typeof value !== 'number') return `input "${name}" must be text or a number to fill a control`;
    const element = observed.snapshot.elements.find((e) => e.ref === ref);
    steps.push(element?.tag === 'select' ? { op: 'select', ref, values: [String(value)] } : { op: 'type', ref, text: String(value), clear: true });
  }
  steps.push({ op: 'click', ref: binding.targetRef });
  return steps;
}

export function adapterExecutor(deps: AdapterDeps): Executor {
  return {
    async execute(call: ExecutionCall): Promise<ExecutionReport> {
      const tabId = await deps.tabOf(call.ctx);
      if (tabId === undefined) return fail("the agent's tab is gone");
      const observed = deps.observer.last(tabId);
      if (!observed) return fail('the page was not observed before acting');
      const steps = adapterSteps(call, observed);
      if (typeof steps === 'string') return fail(steps);
      const report = await actOnTab(deps, tabId, steps, observed.documentToken);
      if (report.outcome !== 'completed') return report;
      const expect = declaredEffect(call.resource.type, call.description);
      return { outcome: 'completed', ...(expect ? { expect } : {}) };
    },
  };
}
