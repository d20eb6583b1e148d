import type { AvailableAction } from '../protocol/action.ts';
import { isDomAction } from '../protocol/action-name.ts';
import type { BridgeRequests } from '../protocol/bridge.ts';
import type { Data } from '../protocol/channel.ts';
import { DOM_STEP_INPUTS, domSteps } from '../protocol/dom-steps.ts';
import type { NeedsApproval } from '../observation/render/marks.ts';
import { WEBMCP_BUDGETS, nameWithinBudget, schemaWithinBudget, withinBudget } from '../protocol/webmcp-budgets.ts';

/**
 * What `bridge/actions` answers besides the tab (pure): the site's own actions (contract, WebMCP,
 * adapter) within Chrome's WebMCP budgets (src/protocol/webmcp-budgets.ts), with their input schemas and whether this agent's call would need the person;
 * and each DOM step once, with its input in signature form and the elements it is offered on,
 * rather than an entry with the same schema for every element.
 */

type ActionsReply = Data<BridgeRequests, 'bridge/actions'>;

const MAX_ACTIONS = 512;

/** Whether an external agent's call would wait for the person: the action's own rule, and any change once it has read page content. */
export function approvalRule(tainted: boolean): NeedsApproval {
  return (a) => a.requires_approval || (tainted && !a.read_only);
}

/** A site's or page's action as a model gets it: within Chrome's WebMCP budgets (description, parameter descriptions). */
function withinBudgets(a: AvailableAction): AvailableAction {
  return {
    ...a,
    ...(a.description !== undefined ? { description: withinBudget(a.description, WEBMCP_BUDGETS.description) } : {}),
    input_schema: schemaWithinBudget(a.input_schema) as AvailableAction['input_schema'],
  };
}

export function actionsView(actions: readonly AvailableAction[], needs: NeedsApproval): Omit<ActionsReply, 'tab'> {
  // A name over the budget is not listed: cut, it would name no tool (or another one).
  const site = actions
    .filter((a) => !isDomAction(a.action) && nameWithinBudget(a.action))
    .slice(0, MAX_ACTIONS)
    .map(withinBudgets);
  const dom = actions.filter((a) => isDomAction(a.action));
  const steps = domSteps(dom.map((a) => a.action)).map((action) => {
    const mine = dom.filter((a) => a.action === action);
    const bound = mine.filter((a) => a.target_ref !== undefined);
    const unbound = mine.filter((a) => a.target_ref === undefined);
    const refs = (list: AvailableAction[]) => [...new Set(list.map((a) => a.target_ref!))];
    return {
      action,
      input: DOM_STEP_INPUTS[action],
      refs: refs(bound),
      needs_approval: refs(bound.filter(needs)),
      payment: refs(bound.filter((a) => a.payment)),
      ...(unbound.length > 0 ? { unbound: { needs_approval: unbound.some(needs) } } : {}),
    };
  });
  return { actions: site.map((a) => ({ ...a, needs_approval: needs(a) })), steps };
}
