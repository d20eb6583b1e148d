import { ActionName } from '../../protocol/action-name.ts';
import type { AvailableActionInput } from '../../protocol/action.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';
import { ToolDescriptor } from '../../protocol/webmcp.ts';
import { capForAgent } from '../../protocol/tool-budget.ts';
import { touchesPayment } from './action-risk.ts';

/**
 * The page's WebMCP tools as actions. The page declares read-only / consequential itself;
 * Steward adds its own payment reading and never lets a missing hint mean "safe". The page's text
 * reaches agents within Chrome's budgets (src/protocol/tool-budget.ts), flagged where it was cut.
 */
export function webmcpActions(tools: readonly unknown[]): { tools: ToolDescriptor[]; actions: AvailableActionInput[]; conflicts: string[] } {
  const valid: ToolDescriptor[] = [];
  const actions: AvailableActionInput[] = [];
  const conflicts = new Set<string>();
  for (const raw of tools.slice(0, 512)) {
    const parsed = ToolDescriptor.safeParse(raw);
    if (!parsed.success) {
      conflicts.add('webmcp_tool_invalid');
      continue;
    }
    const tool = capForAgent(parsed.data);
    valid.push(tool);
    if (tool.schemaError) continue; // listed, but it cannot run
    if (!ActionName.safeParse(tool.name).success) {
      conflicts.add('webmcp_tool_name_unaddressable');
      continue;
    }
    const a = tool.annotations;
    const readOnly = a.readOnlyHint === true;
    const payment = touchesPayment(`${tool.name.replace(/_/g, ' ')} ${tool.title ?? ''}`);
    const consequential = a.consequentialHint === true || a.destructiveHint === true || payment;
    actions.push({
      action: tool.name,
      via: 'webmcp',
      ...(tool.title ? { title: tool.title.slice(0, 256) } : {}),
      description: tool.description,
      read_only: readOnly && !payment,
      consequential,
      payment,
      untrusted_content: a.untrustedContentHint === true,
      requires_approval: !readOnly || consequential,
      input_schema: tool.inputSchema,
    });
  }
  return { tools: valid, actions, conflicts: [...conflicts] };
}

/** Whether the page marked the tool as one for its developers (Chromium's `debugging` annotation). */
const isDebuggingTool = (tool: ToolDescriptor): boolean => tool.annotations.debugging === true;

/**
 * The observation an agent receives when the person has not chosen to show debugging tools: the
 * page's debugging tools are in none of its lists, so the agent neither sees nor can name them.
 */
export function withoutDebuggingTools(state: ObservedState): ObservedState {
  const hidden = new Set((state.tools ?? []).filter(isDebuggingTool).map((t) => t.name));
  if (hidden.size === 0) return state;
  const actions = state.actions?.filter((a) => !(a.via === 'webmcp' && hidden.has(a.action)));
  const stillOffered = new Set((actions ?? []).map((a) => a.action));
  return {
    ...state,
    tools: (state.tools ?? []).filter((t) => !hidden.has(t.name)),
    ...(actions ? { actions } : {}),
    available_actions: state.available_actions.filter((name) => !hidden.has(name) || stillOffered.has(name)),
  };
}
