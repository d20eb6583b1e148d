import { DomClickInput, DomScrollInput, DomSelectInput, DomTypeInput, NavGotoInput } from '../../protocol/action.ts';
import type { ActStep } from '../../protocol/messages.ts';
import type { ExecutionCall, ExecutionReport, Executor, NavigatePort, PortContext } from '../../pipeline/ports.ts';
import { actOnTab } from './act.ts';
import type { SendToFrame } from '../pages/messenger.ts';
import type { TabEvents } from './tab-wait.ts';
import type { TabObserver } from './tab-observer.ts';

/**
 * The legacy_inference path: dom.click / dom.type / dom.select / dom.scroll by element ref in the
 * agent's tab (through src/content/act/, which re-resolves and re-checks the ref), and nav.goto
 * through the navigate port. Inputs were validated when the request was parsed; they are parsed
 * again here because an executor never trusts its caller's types.
 */

export interface DomDeps {
  tabOf(ctx: PortContext): Promise<number | undefined>;
  observer: Pick<TabObserver, 'last'>;
  send: SendToFrame;
  tabs: TabEvents;
  navigate: NavigatePort['navigate'];
}

const noTab: ExecutionReport = { outcome: 'failed', message: "the agent's tab is gone", side_effect_possible: false };

export function domSteps(action: string, input: Record<string, unknown>, form?: ExecutionCall['form']): ActStep[] | string {
  switch (action) {
    case 'dom.click': {
      const i = DomClickInput.safeParse(input);
      return i.success ? [{ op: 'click', ref: i.data.ref, ...(form ? { form } : {}) }] : i.error.message;
    }
    case 'dom.type': {
      const i = DomTypeInput.safeParse(input);
      return i.success ? [{ op: 'type', ref: i.data.ref, text: i.data.text, ...(i.data.clear !== undefined ? { clear: i.data.clear } : {}) }] : i.error.message;
    }
    case 'dom.select': {
      const i = DomSelectInput.safeParse(input);
      return i.success ? [{ op: 'select', ref: i.data.ref, values: i.data.values }] : i.error.message;
    }
    case 'dom.scroll': {
      const i = DomScrollInput.safeParse(input);
      return i.success ? [{ op: 'scroll', ...i.data }] : i.error.message;
    }
    default:
      return `${action} is not a DOM primitive`;
  }
}

export function domExecutor(deps: DomDeps): Executor {
  return {
    async execute(call: ExecutionCall): Promise<ExecutionReport> {
      if (call.action === 'nav.goto') {
        const i = NavGotoInput.safeParse(call.input);
        if (!i.success) return { outcome: 'failed', message: i.error.message, side_effect_possible: false };
        try {
          await deps.navigate(i.data.url, call.ctx);
        } catch (error) {
          return { outcome: 'failed', message: `navigation failed: ${String(error)}`, side_effect_possible: true };
        }
        return { outcome: 'completed', expect: { url: i.data.url } };
      }
      const steps = domSteps(call.action, call.input, call.form);
      if (typeof steps === 'string') return { outcome: 'failed', message: steps, side_effect_possible: false };
      const tabId = await deps.tabOf(call.ctx);
      if (tabId === undefined) return noTab;
      return actOnTab(deps, tabId, steps, deps.observer.last(tabId)?.documentToken);
    },
  };
}
