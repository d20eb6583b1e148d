import { DomCheckInput, DomClickInput, DomDragInput, DomHoverInput, DomPressInput, DomScrollInput, DomSelectInput, DomTypeInput, DomUploadInput, NavGotoInput } from '../../protocol/action.ts';
import type { ActStep } from '../../protocol/messages.ts';
import type { ExecutionCall, ExecutionReport, Executor, NavigatePort, PortContext } from '../../pipeline/ports.ts';
import { actOnTab } from './act.ts';
import { stopped } from './fenced-executor.ts';
import { LeftAllowedSites } from './navigate.ts';
import type { SendToFrame } from '../core/messenger.ts';
import type { TabEvents } from './tab-wait.ts';
import type { TabObserver } from './tab-observer.ts';

/**
 * The legacy_inference path: dom.click / type / select / scroll / press / hover / drag / check by
 * element ref in the agent's tab (through src/content/act/, which re-resolves and re-checks the ref), and nav.goto
 * through the navigate port. Inputs were validated when the request was parsed; they are parsed
 * again here because an executor never trusts its caller's types.
 */

export interface DomDeps {
  tabOf(ctx: PortContext): Promise<number | undefined>;
  /** `actSettled`: told when an act left the page at rest (act.ts). */
  observer: Pick<TabObserver, 'last'> & Partial<Pick<TabObserver, 'actSettled'>>;
  send: SendToFrame;
  tabs: TabEvents;
  navigate: NavigatePort['navigate'];
}

const noTab: ExecutionReport = { outcome: 'failed', message: "the agent's tab is gone", side_effect_possible: false };

function domSteps(action: string, input: Record<string, unknown>, form?: ExecutionCall['form'], targetRef?: string): ActStep[] | string {
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
    case 'dom.press': {
      const i = DomPressInput.safeParse(input);
      if (!i.success) return i.error.message;
      const { ref, key, repeat } = i.data;
      // No ref: the key goes to the focused element, which must still be the one it was judged by.
      const focused = ref === undefined ? targetRef : undefined;
      return [{ op: 'press', key, ...(ref ? { ref } : {}), ...(repeat ? { repeat } : {}), ...(focused ? { focused } : {}), ...(form ? { form } : {}) }];
    }
    case 'dom.hover': {
      const i = DomHoverInput.safeParse(input);
      return i.success ? [{ op: 'hover', ref: i.data.ref }] : i.error.message;
    }
    case 'dom.drag': {
      const i = DomDragInput.safeParse(input);
      return i.success
        ? [{ op: 'drag', ref: i.data.ref, ...(i.data.to ? { to: i.data.to } : {}), ...(i.data.at ? { at: i.data.at } : {}), ...(i.data.offset ? { offset: i.data.offset } : {}) }]
        : i.error.message;
    }
    case 'dom.check': {
      const i = DomCheckInput.safeParse(input);
      return i.success ? [{ op: 'check', ref: i.data.ref, checked: i.data.checked }] : i.error.message;
    }
    case 'dom.upload': {
      // Refused before it gets here (the policy never lets it through); never sent to a page either.
      const i = DomUploadInput.safeParse(input);
      return i.success ? `dom.upload on ${i.data.ref} is never run on a page: only the person may choose a file` : i.error.message;
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
          await deps.navigate(i.data.url, call.ctx, call.allowed_origins ?? []);
        } catch (error) {
          if (error instanceof LeftAllowedSites) return stopped(error, false);
          return { outcome: 'failed', message: `navigation failed: ${String(error)}`, side_effect_possible: true };
        }
        return { outcome: 'completed', expect: { url: i.data.url } };
      }
      const steps = domSteps(call.action, call.input, call.form, call.target_ref);
      if (typeof steps === 'string') return { outcome: 'failed', message: steps, side_effect_possible: false };
      const tabId = await deps.tabOf(call.ctx);
      if (tabId === undefined) return noTab;
      return actOnTab(deps, tabId, steps, deps.observer.last(tabId)?.documentToken);
    },
  };
}
