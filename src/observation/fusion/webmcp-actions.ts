import { ActionName } from '../../protocol/action-name.ts';
import type { AvailableActionInput } from '../../protocol/action.ts';
import { ToolDescriptor } from '../../protocol/webmcp.ts';
import { touchesPayment } from './action-risk.ts';

/**
 * The page's WebMCP tools as actions. The page declares read-only / consequential itself;
 * Steward adds its own payment reading and never lets a missing hint mean "safe".
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
    const tool = parsed.data;
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
