import type { AvailableAction } from '../../protocol/action.ts';
import { isDomAction } from '../../protocol/action-name.ts';
import type { ToolDescriptor } from '../../protocol/webmcp.ts';
import { word } from './page-words.ts';

/**
 * What the rendering says about the actions (pure): the DOM steps are one fixed list (said once,
 * outside the page's text), so a control's line carries only what differs from step to step —
 * whether taking it needs the person (`!`) or touches money (`$`) — and the site's own actions
 * (contract, adapter) get one line each with their parameters and the same marks.
 */

/** Whether an agent's call of this action would wait for the person: the observation's rule, or the bridge's (any change, once tainted). */
export type NeedsApproval = (a: AvailableAction) => boolean;
export const requiresApproval: NeedsApproval = (a) => a.requires_approval;

/** The DOM steps offered on one element, and which of them need the person. */
export interface RefSteps {
  steps: string[];
  approval: string[];
  payment: boolean;
}

/** Per element ref: its DOM steps (`dom.click`, `dom.type`, …) with their risk. */
export function stepsByRef(actions: readonly AvailableAction[], needs: NeedsApproval): Map<string, RefSteps> {
  const out = new Map<string, RefSteps>();
  for (const a of actions) {
    if (!isDomAction(a.action) || a.target_ref === undefined) continue;
    // A hover changes nothing and never waits for the person: `!` means every step that may change something does.
    if (a.action === 'dom.hover' && !needs(a)) continue;
    let r = out.get(a.target_ref);
    if (!r) {
      r = { steps: [], approval: [], payment: false };
      out.set(a.target_ref, r);
    }
    r.steps.push(a.action);
    if (needs(a)) r.approval.push(a.action);
    if (a.payment) r.payment = true;
  }
  return out;
}

/**
 * ` !` when every step on the element needs the person's approval (a hover aside), ` !press` when only some do
 * (the verbs that do), `$` when one touches payment; nothing when each runs at once.
 */
export function stepMark(r: RefSteps | undefined): string {
  if (!r || (r.approval.length === 0 && !r.payment)) return '';
  const some = r.approval.length < r.steps.length ? r.approval.map((s) => s.slice(s.indexOf('.') + 1)).join(',') : '';
  return ` ${r.approval.length > 0 ? `!${some}` : ''}${r.payment ? '$' : ''}`;
}

/** ` !` / ` !$` for a site action or tool: whether calling it waits for the person, whether it touches money. */
export function actionMark(a: AvailableAction | undefined, needs: NeedsApproval): string {
  if (!a) return '';
  const approval = needs(a);
  return approval || a.payment ? ` ${approval ? '!' : ''}${a.payment ? '$' : ''}` : '';
}

/** `date*, doctor`: a schema's parameters, required ones starred (page-controlled keys shown as words). */
export function schemaParams(schema: Record<string, unknown>): string {
  const props = schema.properties && typeof schema.properties === 'object' ? Object.keys(schema.properties as object) : [];
  const required = Array.isArray(schema.required) ? new Set(schema.required.filter((r): r is string => typeof r === 'string')) : new Set<string>();
  return props
    .slice(0, 20)
    .map((p) => `${word(p, 60)}${required.has(p) ? '*' : ''}`)
    .join(', ');
}

/**
 * `Actions: orders.cancel(reason*) ! · orders.track()`: the site's contract and adapter actions
 * (WebMCP tools have their own lines), each with its parameters and marks; undefined when none.
 */
export function siteActionsLine(names: readonly string[], actions: readonly AvailableAction[], tools: readonly ToolDescriptor[], needs: NeedsApproval): string | undefined {
  const toolNames = new Set(tools.map((t) => t.name));
  const described = new Map(actions.map((a) => [a.action, a]));
  const shown = names.filter((n) => !toolNames.has(n) && !isDomAction(n) && described.get(n)?.via !== 'webmcp');
  if (shown.length === 0) return undefined;
  return `Actions: ${shown
    .map((n) => {
      const a = described.get(n);
      return `${word(n, 120)}(${a ? schemaParams(a.input_schema) : ''})${actionMark(a, needs)}`;
    })
    .join(' · ')}`;
}
